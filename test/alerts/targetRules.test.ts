import { expect } from "chai";
import { checkAlertTarget, type AlertTargetResolver } from "../../src/alerts/checkAlertTarget";
import { isPublicAddress } from "../../src/alerts/isPublicAddress";
import { AlertTargetRefusedError } from "../../src/errors/alerts";
import { expectNoAddress } from "../helpers/alerts/noAddress";

/** The internet's DNS is the edge: names answer from this table (a name not in it does not resolve). */
const DNS: Record<string, { address: string; family: number }[]> = {
  "hooks.example.com": [
    { address: "93.184.215.14", family: 4 },
    { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
  ],
  "internal.example.com": [{ address: "10.0.0.5", family: 4 }],
  "mixed.example.com": [
    { address: "93.184.215.14", family: 4 },
    { address: "127.0.0.1", family: 4 },
  ],
  "v6-local.example.com": [{ address: "fd00::5", family: 6 }],
  "mapped.example.com": [{ address: "::ffff:192.168.1.1", family: 6 }],
  "metadata.example.com": [{ address: "169.254.169.254", family: 4 }],
};
const resolve: AlertTargetResolver = async (hostname) => {
  const answer = DNS[hostname];
  if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return answer;
};

async function refusal(url: string, allowPrivateTargets = false): Promise<AlertTargetRefusedError> {
  try {
    await checkAlertTarget({ url, allowPrivateTargets, resolve });
  } catch (error) {
    expect(error).to.be.instanceOf(AlertTargetRefusedError);
    expect((error as AlertTargetRefusedError).code).to.equal("ALERT_TARGET_REFUSED");
    return error as AlertTargetRefusedError;
  }
  throw new Error(`${url} was accepted`);
}

/** The same, with the system resolver (`getaddrinfo`: /etc/hosts, no outside DNS for `localhost`). */
async function refusalWith(parameters: Parameters<typeof checkAlertTarget>[0]): Promise<AlertTargetRefusedError> {
  try {
    await checkAlertTarget(parameters);
  } catch (error) {
    expect(error).to.be.instanceOf(AlertTargetRefusedError);
    return error as AlertTargetRefusedError;
  }
  throw new Error(`${parameters.url} was accepted`);
}

describe("alert target rules (SSRF)", function () {
  describe("refused by default", function () {
    const cases: [string, string, RegExp][] = [
      ["plain http", "http://hooks.example.com/in", /must use https, not http:/],
      ["another scheme", "ftp://hooks.example.com/in", /must use https/],
      ["not a URL", "hooks.example.com/in", /not a valid absolute URL/],
      ["credentials in the URL", "https://user:pw@hooks.example.com/in", /user name or password/],
      ["IPv4 loopback", "https://127.0.0.1/in", /127\.0\.0\.1 is not a public address/],
      ["IPv4 loopback, other address", "https://127.8.9.10/in", /not a public address/],
      ["private 10/8", "https://10.1.2.3/", /not a public address/],
      ["private 172.16/12", "https://172.20.0.1/", /not a public address/],
      ["private 192.168/16", "https://192.168.0.10:8443/", /not a public address/],
      ["link-local (cloud metadata)", "https://169.254.169.254/latest/meta-data", /not a public address/],
      ["CGNAT 100.64/10", "https://100.64.0.1/", /not a public address/],
      ["this network 0.0.0.0", "https://0.0.0.0/", /not a public address/],
      ["multicast", "https://224.0.0.251/", /not a public address/],
      ["reserved 240/4", "https://240.0.0.1/", /not a public address/],
      ["broadcast", "https://255.255.255.255/", /not a public address/],
      ["benchmarking 198.18/15", "https://198.18.0.1/", /not a public address/],
      ["documentation", "https://192.0.2.1/", /not a public address/],
      ["IPv6 loopback", "https://[::1]/", /::1 is not a public address/],
      ["IPv6 unspecified", "https://[::]/", /not a public address/],
      ["IPv6 unique local fc00::/7", "https://[fd12:3456::1]/", /not a public address/],
      ["IPv6 unique local fc00::", "https://[fc00::1]/", /not a public address/],
      ["IPv6 link-local", "https://[fe80::1]/", /not a public address/],
      ["IPv6 multicast", "https://[ff02::1]/", /not a public address/],
      ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/", /not a public address/],
      ["IPv4-mapped private, hex spelling", "https://[::ffff:a00:1]/", /not a public address/],
      ["IPv4-mapped link-local", "https://[0:0:0:0:0:ffff:169.254.1.1]/", /not a public address/],
      ["IPv4-compatible (deprecated)", "https://[::127.0.0.1]/", /not a public address/],
      ["NAT64 to a private address", "https://[64:ff9b::a00:1]/", /not a public address/],
      ["6to4 embedding loopback", "https://[2002:7f00:1::1]/", /not a public address/],
      ["IPv6 documentation", "https://[2001:db8::1]/", /not a public address/],
      ["decimal IPv4 spelling", "https://2130706433/", /dotted decimal/],
      ["octal IPv4 spelling", "https://0177.0.0.1/", /dotted decimal/],
      ["hex IPv4 spelling", "https://0x7f000001/", /dotted decimal/],
      ["mixed hex part", "https://0x7f.0.0.1/", /dotted decimal/],
      ["short IPv4 form", "https://127.1/", /dotted decimal/],
      ["decimal spelling of a public address", "https://134744072/", /dotted decimal/],
      ["percent-encoded host", "https://%31%32%37.0.0.1/", /dotted decimal/],
      ["a name that does not resolve", "https://nowhere.example.com/", /does not resolve \(ENOTFOUND\)/],
      ["a URL that is too long", `https://hooks.example.com/${"a".repeat(2100)}`, /longer than 2048/],
    ];
    for (const [what, url, message] of cases) {
      it(`refuses ${what}: ${url.length > 60 ? `${url.slice(0, 60)}…` : url}`, async function () {
        const error = await refusal(url);
        expect(error.shortMessage).to.match(message);
        expect(error.field).to.equal("url");
      });
    }
  });

  describe("a refused name never tells what it resolves to (no DNS oracle)", function () {
    const names: [string, string][] = [
      ["a private address", "internal.example.com"],
      ["one private address among public ones", "mixed.example.com"],
      ["an IPv6 unique local address", "v6-local.example.com"],
      ["a mapped private address", "mapped.example.com"],
      ["the metadata address", "metadata.example.com"],
    ];
    for (const [what, host] of names) {
      it(`refuses a name resolving to ${what} without naming an address: ${host}`, async function () {
        const error = await refusal(`https://${host}/in`);
        expect(error.shortMessage).to.equal(
          `Target refused: the host name ${host} resolves to an address that is not public (loopback, private, link-local or reserved).`,
        );
        expectNoAddress(error.message, DNS[host]);
      });
    }

    it("says the same for a name the system resolves to loopback (localhost, from /etc/hosts)", async function () {
      const error = await refusalWith({ url: "https://localhost:8443/in", allowPrivateTargets: false });
      expect(error.shortMessage).to.match(/the host name localhost resolves to an address that is not public/);
      expectNoAddress(error.message, [{ address: "127.0.0.1" }, { address: "::1" }]);
    });

    it("still names a literal IP address the caller wrote", async function () {
      expect((await refusal("https://10.1.2.3/in")).shortMessage).to.equal(
        "Target refused: 10.1.2.3 is not a public address.",
      );
    });
  });

  describe("accepted", function () {
    it("pins a public name to the first address it resolves to, after checking them all", async function () {
      const target = await checkAlertTarget({
        url: "https://Hooks.Example.com:8443/in?x=1",
        allowPrivateTargets: false,
        resolve,
      });
      expect(target.url.href).to.equal("https://hooks.example.com:8443/in?x=1");
      expect(target).to.include({ address: "93.184.215.14", family: 4 });
    });

    it("takes public IP literals as written (IPv4, IPv6, IPv4-mapped public)", async function () {
      for (const [url, address, family] of [
        ["https://93.184.215.14/in", "93.184.215.14", 4],
        ["https://[2606:4700:4700::1111]/in", "2606:4700:4700::1111", 6],
        ["https://[::ffff:8.8.8.8]/", "::ffff:808:808", 6],
      ] as const) {
        const target = await checkAlertTarget({ url, allowPrivateTargets: false, resolve });
        expect(target).to.include({ address, family });
      }
    });

    it("ALERTS_ALLOW_PRIVATE_TARGETS lifts the address rule and allows http, not the other rules", async function () {
      const local = await checkAlertTarget({ url: "http://127.0.0.1:9/hook", allowPrivateTargets: true, resolve });
      expect(local).to.include({ address: "127.0.0.1", family: 4 });
      const named = await checkAlertTarget({ url: "http://internal.example.com/", allowPrivateTargets: true, resolve });
      expect(named.address).to.equal("10.0.0.5");
      expect((await refusal("https://2130706433/", true)).shortMessage).to.match(/dotted decimal/);
      expect((await refusal("ftp://127.0.0.1/", true)).shortMessage).to.match(/https or http/);
      expect((await refusal("http://u@127.0.0.1/", true)).shortMessage).to.match(/user name/);
    });
  });

  describe("isPublicAddress", function () {
    const table: [string, boolean][] = [
      ["8.8.8.8", true],
      ["1.1.1.1", true],
      ["93.184.215.14", true],
      ["172.32.0.1", true],
      ["100.128.0.1", true],
      ["2606:4700:4700::1111", true],
      ["2a00:1450:4001:82b::200e", true],
      ["::ffff:8.8.8.8", true],
      ["127.0.0.1", false],
      ["10.255.255.255", false],
      ["172.31.255.255", false],
      ["192.168.255.255", false],
      ["169.254.0.1", false],
      ["100.127.255.255", false],
      ["0.1.2.3", false],
      ["192.0.0.8", false],
      ["203.0.113.9", false],
      ["239.255.255.250", false],
      ["::1", false],
      ["::", false],
      ["fe80::1%eth0", false],
      ["fec0::1", false],
      ["fdff::1", false],
      ["::ffff:10.0.0.1", false],
      ["::ffff:0:0", false],
      ["64:ff9b::808:808", false],
      ["64:ff9b:1::1", false],
      ["100::1", false],
      ["2001::1", false],
      ["2001:db8:1::1", false],
      ["2002:c000:0204::1", false],
      ["3fff::1", false],
      ["ff05::2", false],
      ["localhost", false],
      ["", false],
    ];
    for (const [address, expected] of table) {
      it(`${address || "(empty)"} → ${expected ? "public" : "refused"}`, function () {
        expect(isPublicAddress(address)).to.equal(expected);
      });
    }
  });
});
