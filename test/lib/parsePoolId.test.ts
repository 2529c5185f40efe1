import { expect } from "chai";
import { InvalidPoolIdError } from "../../src/errors/pool";
import { formatPoolId } from "../../src/lib/formatPoolId";
import { parsePoolId } from "../../src/lib/parsePoolId";

const address = "0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc";
const lower = address.toLowerCase();

describe("parsePoolId", function () {
  it("accepts the three shapes in any case and lower-cases the address", function () {
    expect(parsePoolId({ id: address })).to.deep.equal({ chainId: null, address: lower });
    expect(parsePoolId({ id: `8453:${address}` })).to.deep.equal({ chainId: 8453, address: lower });
    expect(parsePoolId({ id: `eip155:42161:${address.toUpperCase().replace("0X", "0x")}` })).to.deep.equal({
      chainId: 42161,
      address: lower,
    });
    expect(parsePoolId({ id: `EIP155:1:${address}` })).to.deep.equal({ chainId: 1, address: lower });
  });

  it("reads back what formatPoolId writes", function () {
    const id = formatPoolId({ chainId: 8453, address });
    expect(id).to.equal(`eip155:8453:${lower}`);
    expect(parsePoolId({ id })).to.deep.equal({ chainId: 8453, address: lower });
  });

  for (const id of [
    "",
    "0x1234",
    `${address}00`,
    `0:${address}`,
    `01:${address}`,
    `-1:${address}`,
    `eip155:${address}`,
    `cosmos:1:${address}`,
    `eip155:1:${address}:extra`,
    `99999999999999999:${address}`,
    ` ${address}`,
  ]) {
    it(`rejects ${JSON.stringify(id.slice(0, 40))} with InvalidPoolIdError naming the field`, function () {
      let thrown: unknown;
      try {
        parsePoolId({ id, field: "pools" });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(InvalidPoolIdError);
      expect((thrown as InvalidPoolIdError).code).to.equal("INVALID_POOL_ID");
      expect((thrown as InvalidPoolIdError).field).to.equal("pools");
    });
  }

  it("quotes at most 100 characters of a long id", function () {
    expect(() => parsePoolId({ id: "x".repeat(300) })).to.throw(InvalidPoolIdError, /^"x{100}…" is not a pool/);
  });
});
