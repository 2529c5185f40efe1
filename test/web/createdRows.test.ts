import { expect } from "chai";
import { INJECT_ORIGIN, getPage, signInCookie, useWebApp } from "../helpers/web/webApp";

/** The rows of the page's table, as the server renders them. */
function rows(page: string): string[] {
  return [...page.matchAll(/<tr data-(?:key|subscription)-id="[^"]*">[\s\S]*?<\/tr>/g)].map((m) => m[0]);
}

describe("the dapp's create endpoints answer the new row as the page renders it (rowHtml)", function () {
  const web = useWebApp({ ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
  let cookie: string;
  before(async function () {
    cookie = await signInCookie(web.app);
  });

  const create = (url: string, payload: object) =>
    web.app.inject({ method: "POST", url, headers: { cookie, origin: INJECT_ORIGIN }, payload });

  it("POST /app/api/keys: the key once, its fields, and the keys page's own row for it", async function () {
    const created = await create("/app/api/keys", { label: "row <b>test</b>" });
    expect(created.statusCode, created.body).to.equal(201);
    const body = created.json();
    expect(Object.keys(body)).to.deep.equal(["id", "key", "label", "createdAt", "rowHtml"]);
    expect(body.label).to.equal("row <b>test</b>");
    expect(body.rowHtml).to.match(new RegExp(`^<tr data-key-id="${body.id}">`));
    expect(body.rowHtml).to.include("row &lt;b&gt;test&lt;/b&gt;").and.not.include("<b>");
    expect(body.rowHtml).not.to.include(body.key);
    const page = (await getPage(web.app, "/app/keys", cookie)).body;
    expect(rows(page)).to.include(body.rowHtml);
  });

  it("POST /app/api/alert-subscriptions: the secret once, its fields, and the alerts page's own row for it", async function () {
    const created = await create("/app/api/alert-subscriptions", {
      url: "http://127.0.0.1:9/row",
      kinds: ["pool.stale", "liquidity_request.created"],
    });
    expect(created.statusCode, created.body).to.equal(201);
    const body = created.json();
    expect(Object.keys(body)).to.deep.equal(["id", "url", "kinds", "pool", "secret", "state", "createdAt", "rowHtml"]);
    expect(body.secret).to.match(/^whsec_/);
    expect(body.rowHtml).to.match(new RegExp(`^<tr data-subscription-id="${body.id}">`));
    expect(body.rowHtml).to.include("pool.stale, liquidity_request.created");
    expect(body.rowHtml).not.to.include(body.secret);
    const page = (await getPage(web.app, "/app/alerts", cookie)).body;
    expect(rows(page)).to.include(body.rowHtml);
  });
});
