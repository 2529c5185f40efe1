import { expect } from "chai";
import { checkRequestOrigin } from "../../src/mcp/checkRequestOrigin";

const ok = (origin: string | undefined, host: string | undefined, publicOrigin: string) =>
  checkRequestOrigin({ origin, host, publicOrigin }).ok;

describe("checkRequestOrigin (the /mcp DNS-rebinding rule)", function () {
  it("accepts no Origin, or exactly the service's own; refuses any other (another port, scheme or name, null)", function () {
    const own = "http://127.0.0.1:8080";
    expect(ok(undefined, "127.0.0.1:8080", own)).to.equal(true);
    expect(ok(own, "127.0.0.1:8080", own)).to.equal(true);
    for (const origin of ["http://127.0.0.1:8081", "https://127.0.0.1:8080", "http://localhost:8080", "null", ""]) {
      expect(ok(origin, "127.0.0.1:8080", own), origin).to.equal(false);
    }
  });

  it("on a loopback origin, accepts only loopback Host names (any port)", function () {
    for (const host of ["127.0.0.1:8080", "localhost:9", "LOCALHOST", "[::1]:8080"]) {
      expect(ok(undefined, host, "http://127.0.0.1:8080"), host).to.equal(true);
    }
    for (const host of [undefined, "", "attacker.example:8080", "127.0.0.1.nip.io", "evil@127.0.0.1", "10.0.0.5"]) {
      expect(ok(undefined, host, "http://localhost:8080"), String(host)).to.equal(false);
    }
  });

  it("on a public origin, accepts its own name and loopback (a proxy on the machine), nothing else", function () {
    const own = "https://attest.example.org";
    for (const host of ["attest.example.org", "attest.example.org:443", "127.0.0.1:8080"]) {
      expect(ok(undefined, host, own), host).to.equal(true);
    }
    for (const host of ["rebind.attacker.example", "example.org"])
      expect(ok(undefined, host, own), host).to.equal(false);
    expect(ok("https://attest.example.org", "attest.example.org", own)).to.equal(true);
  });

  it("on a wildcard listen address, cannot know the host: checks the Origin only", function () {
    expect(ok(undefined, "anything.example:8080", "http://0.0.0.0:8080")).to.equal(true);
    expect(ok("http://anything.example:8080", "anything.example:8080", "http://0.0.0.0:8080")).to.equal(false);
  });
});
