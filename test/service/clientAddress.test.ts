import { expect } from "chai";
import { clientAddressKey } from "../../src/service/clientAddress";

describe("clientAddressKey: the client a limit counts against", function () {
  it("keeps an IPv4 address, and reads one a dual-stack socket shows as ::ffff:a.b.c.d", function () {
    expect(clientAddressKey("203.0.113.7")).to.equal("203.0.113.7");
    expect(clientAddressKey("::ffff:203.0.113.7")).to.equal("203.0.113.7");
  });

  it("counts every address of one IPv6 /64 as one client, in any spelling", function () {
    const key = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:db8:1:2:aaaa:bbbb:cccc:dddd",
      "2001:0DB8:0001:0002:0000:0000:0000:0009",
      "2001:db8:1:2:ffff::1.2.3.4",
    ]) {
      expect(clientAddressKey(address), address).to.equal(key);
    }
    expect(clientAddressKey("2001:db8:1:3::1")).to.not.equal(key);
    expect(clientAddressKey("::1")).to.equal("0:0:0:0::/64");
    expect(clientAddressKey("2001:db8::")).to.equal("2001:db8:0:0::/64");
    expect(clientAddressKey("fe80::1:2:3:4")).to.equal("fe80:0:0:0::/64");
  });

  it("keeps anything that is not an IP address as it is", function () {
    expect(clientAddressKey("unknown")).to.equal("unknown");
  });
});
