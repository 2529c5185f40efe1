import { expect } from "chai";
import { formatPoolId } from "../../src/lib/formatPoolId";

describe("formatPoolId", function () {
  it("writes the CAIP-10 id with the address lower-cased", function () {
    expect(formatPoolId({ chainId: 42161, address: "0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc" })).to.equal(
      "eip155:42161:0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc",
    );
  });
});
