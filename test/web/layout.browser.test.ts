import { expect } from "chai";
import type { Page } from "playwright-core";
import { ISSUER_RULE } from "../../src/attest/refreshModelEvaluation";
import { evaluateModel } from "../../src/model/evaluateModel";
import { HORIZON_MODELS } from "../../src/model/horizon";
import { saveModelEvaluation } from "../../src/storage/modelEvaluations";
import { shortAddress } from "../../src/web/format";
import { IDS } from "../helpers/read/seedMarket";
import { screenshot, signInWithWallet, useDappInChromium, type Tab } from "../helpers/web/browser";
import { WALLET } from "../helpers/web/webApp";

/** How far the document is wider than the viewport (0 or less: no sideways scrolling of the page). */
const overflowOf = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Every page of the dapp at a desktop width (1280 px) and a phone's (390 px, and 360 px for the overflow check), in
 * Debian's Chromium on the real app: no sideways scrolling of the page, no console error, a compact header on a
 * phone, the favicon linked and served. Writes a screenshot of each page at 1280 and 390 px to
 * `test-output/screenshots/<page>-<width>.png`.
 */
describe("dapp layout at 1280, 390 and 360 px (Chromium)", function () {
  this.timeout(240_000);
  const web = useDappInChromium({ ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
  let signedIn: Tab;

  /** The pages to check: every navigation page with content in its tables, a pool's page, the confirm pages. */
  let pages: { name: string; path: string }[];

  before(async function () {
    signedIn = await web.tab({ wallet: { account: WALLET }, width: 1280 });
    const { page } = signedIn;
    await signInWithWallet(page, "/app/pools");
    // Something in every wallet table: two unlabelled keys and a labelled one, a request, a subscription.
    const origin = { origin: web.base };
    const keys = [];
    for (const label of [null, null, "trading bot"]) {
      const created = await page.request.post("/app/api/keys", { headers: origin, data: { label } });
      keys.push((await created.json()) as { id: string; key: string });
    }
    const request = await page.request.post("/api/v1/liquidity-requests", {
      headers: { authorization: `Bearer ${keys[2].key}` },
      data: { chainId: 1, pool: IDS.a, amountUsd: 1_250_000, horizonDays: 45, note: "for a market-making desk" },
    });
    expect(request.status()).to.equal(201);
    const subscribed = await page.request.post("/app/api/alert-subscriptions", {
      headers: origin,
      data: { url: "http://127.0.0.1:9/a-rather-long-path/for/the/webhook/receiver", kinds: ["pool.stale"] },
    });
    const subscription = (await subscribed.json()) as { id: string };
    // The model page with an evaluation of every version: synthetic pools of a year, a withdrawal now and then.
    const pools = Array.from({ length: 12 }, (_, n) => ({
      pool: `eip155:1:0x${(n + 1).toString(16).padStart(40, "0")}`,
      daily: Array.from({ length: 365 }, (_, i) => ({
        day: new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
        minDepthUsd: 1_000_000 * (1 + ((i * (n + 3)) % 7) / 50) * ((i * 7 + n * 13) % 97 === 0 ? 0.3 : 1),
      })),
    }));
    for (const model of HORIZON_MODELS) {
      const evaluation = evaluateModel(pools, { ...ISSUER_RULE, model }, "2025-12-31");
      await saveModelEvaluation(web.store.db, { model: model.id, computedAt: 1_767_225_600, evaluation });
    }
    pages = [
      { name: "pools", path: "/app/pools" },
      { name: "pool", path: `/app/pools/${IDS.e}` },
      { name: "volume", path: "/app/volume" },
      { name: "liquidity-map", path: "/app/liquidity-map" },
      { name: "compare", path: `/app/compare?pools=${[IDS.a, IDS.c, IDS.e, IDS.f].join(",")}` },
      { name: "roadmap", path: "/app/roadmap" },
      { name: "model", path: "/app/model" },
      { name: "launch", path: "/app/launch" },
      { name: "activity", path: "/app/activity" },
      { name: "liquidity-requests", path: "/app/liquidity-requests" },
      { name: "keys", path: "/app/keys" },
      { name: "revoke-key", path: `/app/keys/${keys[0].id}/revoke` },
      { name: "alerts", path: "/app/alerts" },
      { name: "delete-alert", path: `/app/alerts/${subscription.id}/delete` },
      { name: "not-found", path: "/app/no-such-page" },
    ];
  });

  for (const width of [1280, 390, 360]) {
    it(`shows every page at ${width} px without sideways scrolling of the page`, async function () {
      const { page } = width === 1280 ? signedIn : await web.tab({ width });
      if (width !== 1280) await page.context().addCookies(await signedIn.context.cookies());
      const wide: string[] = [];
      for (const { name, path } of pages) {
        await page.goto(path);
        if (name === "pool") await page.locator("[data-verify][data-result]").waitFor();
        if ((await overflowOf(page)) > 0) wide.push(`${name} (${await overflowOf(page)} px)`);
        if (name === "launch") {
          // Its table is wider than a phone: the frame scrolls and says so (the client bundle marks it).
          const says = await page.locator(".table-wrap[data-scrolls]").count();
          expect(says, `launch at ${width}: a frame marked as scrolling`).to.equal(width === 1280 ? 0 : 1);
        }
        if (name === "alerts" && width !== 1280) {
          // The navigation is a "Menu" that opens (no JavaScript needed): every link then in view, the current one too.
          await page.locator("nav.pages summary").click();
          for (const link of await page.locator("nav.pages a").all()) {
            const box = (await link.boundingBox())!;
            expect(box.x).to.be.at.least(0);
            expect(box.x + box.width).to.be.at.most(width);
          }
        }
        if (width !== 360) await screenshot(page, `${name}-${width}`);
      }
      expect(wide, "pages wider than the viewport").to.deep.equal([]);
    });
  }

  it("keeps the header and the navigation compact on a phone (one line each), the favicon linked", async function () {
    const { page } = await web.tab({ width: 390 });
    await page.context().addCookies(await signedIn.context.cookies());
    await page.goto("/app/volume");
    const header = (await page.locator("header.top").boundingBox())!;
    const nav = (await page.locator("nav.pages").boundingBox())!;
    expect(header.height, "header").to.be.at.most(60);
    expect(nav.height, "navigation").to.be.at.most(48);
    // The header shows the address cut short (0x1234…abcd), the whole one in its title.
    expect(await page.locator("header [data-address]").textContent()).to.equal(shortAddress(WALLET.address));
    expect(await page.locator("header [data-address]").getAttribute("title")).to.equal(WALLET.address);
    const icon = await page.locator('link[rel="icon"]').getAttribute("href");
    const served = await page.request.get(icon!);
    expect(served.status()).to.equal(200);
    expect(served.headers()["content-type"]).to.equal("image/svg+xml");
  });

  it("the sign-in page fits a 360 px phone", async function () {
    for (const width of [1280, 390, 360]) {
      const { page } = await web.tab({ width });
      await page.goto("/app/sign-in");
      expect(await overflowOf(page)).to.be.at.most(0);
      if (width !== 360) await screenshot(page, `sign-in-${width}`);
    }
  });
});
