import { expect } from "chai";
import { expectNoAddress } from "../helpers/alerts/noAddress";
import { INJECT_ORIGIN, signInCookie, useWebApp, WALLET } from "../helpers/web/webApp";

describe("dapp alert subscriptions: a refused target never names a resolved address", function () {
  // The production rule: private targets are not allowed (the other dapp suites lift it for their loopback targets).
  const web = useWebApp();
  let cookie: string;

  before(async function () {
    cookie = await signInCookie(web.app, WALLET);
  });

  const subscribe = (url: string) =>
    web.app.inject({
      method: "POST",
      url: "/app/api/alert-subscriptions",
      headers: { cookie, origin: INJECT_ORIGIN },
      payload: { url, kinds: ["pool.stale"] },
    });

  it("refuses a host name that resolves to loopback without saying which address (localhost, from /etc/hosts)", async function () {
    for (const url of ["https://localhost/hook", "https://localhost:8443/"]) {
      const res = await subscribe(url);
      expect(res.statusCode, url).to.equal(400);
      const { error } = res.json();
      expect(error).to.include({ code: "ALERT_TARGET_REFUSED", field: "url" });
      expect(error.message, url).to.equal(
        "Target refused: the host name localhost resolves to an address that is not public (loopback, private, link-local or reserved).",
      );
      expectNoAddress(res.body, [{ address: "127.0.0.1" }, { address: "::1" }]);
    }
  });

  it("names a literal address, which is the caller's own input", async function () {
    const res = await subscribe("https://10.0.0.1/hook");
    expect(res.statusCode).to.equal(400);
    expect(res.json().error.message).to.equal("Target refused: 10.0.0.1 is not a public address.");
  });
});
