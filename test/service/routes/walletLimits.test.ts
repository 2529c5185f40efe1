import { expect } from "chai";
import { INJECT_ORIGIN, OTHER_WALLET, getPage, signInCookie, useWebApp } from "../../helpers/web/webApp";

const KEYED = "/api/v1/alert-subscriptions";
const DAPP = "/app/api/alert-subscriptions";

/**
 * The caps of docs/security.md#keys-subscriptions-and-alerts over HTTP: a wallet's keys are capped
 * (MAX_KEYS_PER_WALLET), its keys' subscriptions count with its own, and a revoked key's subscriptions stay the
 * wallet's to see and delete, paused.
 */
describe("the dapp's owner limits over HTTP (real SQLite)", function () {
  const web = useWebApp({ ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
  let cookie: string;
  before(async function () {
    cookie = await signInCookie(web.app);
  });

  const dapp = (method: "GET" | "POST" | "DELETE", url: string, payload?: object, as = cookie) =>
    web.app.inject({ method, url, headers: { cookie: as, origin: INJECT_ORIGIN }, ...(payload ? { payload } : {}) });
  const keyed = (method: "GET" | "POST", key: string, payload?: object) =>
    web.app.inject({
      method,
      url: KEYED,
      headers: { authorization: `Bearer ${key}` },
      ...(payload ? { payload } : {}),
    });
  const target = (n: number) => ({ url: `http://127.0.0.1:9/w${n}`, kinds: ["pool.stale"] });

  it("POST /app/api/keys: the 11th active key is 409 TOO_MANY_KEYS; revoking one frees a slot", async function () {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const created = await dapp("POST", "/app/api/keys", { label: `k${i}` });
      expect(created.statusCode, created.body).to.equal(201);
      ids.push(created.json().id);
    }
    const refused = await dapp("POST", "/app/api/keys", { label: "eleventh" });
    expect(refused.statusCode).to.equal(409);
    expect(refused.headers["content-type"]).to.match(/^application\/json/);
    expect(refused.json().error).to.include({ code: "TOO_MANY_KEYS" });
    expect(refused.json().error.message).to.match(/at most 10 API keys/);
    expect((await dapp("DELETE", `/app/api/keys/${ids[0]}`)).json()).to.deep.equal({ id: ids[0], revoked: true });
    expect((await dapp("POST", "/app/api/keys", { label: "after a revocation" })).statusCode).to.equal(201);
    expect((await dapp("POST", "/app/api/keys", { label: "eleventh again" })).statusCode).to.equal(409);
    // Another wallet has its own 10.
    const other = await signInCookie(web.app, OTHER_WALLET);
    expect((await dapp("POST", "/app/api/keys", { label: "theirs" }, other)).statusCode).to.equal(201);
    for (const id of (await dapp("GET", "/app/api/keys")).json().keys.map((k: { id: string }) => k.id)) {
      await dapp("DELETE", `/app/api/keys/${id}`);
    }
  });

  it("subscriptions made with the wallet's keys count with its own and are listed for it; a revoked key's are paused, not resumable, deletable", async function () {
    const keys: string[] = [];
    const keyIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = (await dapp("POST", "/app/api/keys", { label: `sub key ${i}` })).json();
      keys.push(created.key);
      keyIds.push(created.id);
    }
    let n = 0;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < (i < 2 ? 7 : 6); j++) {
        const created = await keyed("POST", keys[i], target(n++));
        expect(created.statusCode, created.body).to.equal(201);
      }
    }
    for (const attempt of [() => keyed("POST", keys[2], target(n++)), () => dapp("POST", DAPP, target(n++))]) {
      const refused = await attempt();
      expect(refused.statusCode).to.equal(409);
      expect(refused.json().error.code).to.equal("ALERT_SUBSCRIPTION_LIMIT");
    }
    // The wallet lists all 20; a key lists its own 7.
    expect((await dapp("GET", DAPP)).json().subscriptions).to.have.length(20);
    const firstKeys = (await keyed("GET", keys[0])).json().subscriptions as { id: string }[];
    expect(firstKeys).to.have.length(7);

    // Revoke the first key: its 7 are paused and still the wallet's.
    expect((await dapp("DELETE", `/app/api/keys/${keyIds[0]}`)).json().revoked).to.equal(true);
    expect((await keyed("GET", keys[0])).statusCode).to.equal(401);
    const listed = (await dapp("GET", DAPP)).json().subscriptions as { id: string; state: string }[];
    const revokedOnes = listed.filter((s) => firstKeys.some((f) => f.id === s.id));
    expect(revokedOnes.map((s) => s.state)).to.deep.equal(Array(7).fill("paused"));
    expect(listed.filter((s) => s.state === "active")).to.have.length(13);
    const page = (await getPage(web.app, "/app/alerts", cookie)).body;
    for (const s of revokedOnes) expect(page).to.include(`data-subscription-id="${s.id}"`);

    const resumed = await dapp("POST", `${DAPP}/${revokedOnes[0].id}/resume`);
    expect(resumed.statusCode).to.equal(409);
    expect(resumed.json().error.code).to.equal("ALERT_SUBSCRIPTION_KEY_REVOKED");
    const other = await signInCookie(web.app, OTHER_WALLET);
    expect((await dapp("DELETE", `${DAPP}/${revokedOnes[0].id}`, undefined, other)).statusCode).to.equal(404);
    expect((await dapp("DELETE", `${DAPP}/${revokedOnes[0].id}`)).statusCode).to.equal(204);
    // Deleting frees a slot for the wallet's remaining keys.
    expect((await keyed("POST", keys[1], target(n++))).statusCode).to.equal(201);
    expect((await dapp("GET", DAPP)).json().subscriptions).to.have.length(20);
  });
});
