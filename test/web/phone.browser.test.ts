import { expect } from "chai";
import type { Page } from "playwright-core";
import { deliverDueAlerts } from "../../src/alerts/deliverAlert";
import { ACTIVITY_KINDS, ACTIVITY_KIND_DESCRIPTIONS } from "../../src/model/activityKinds";
import { NAV_PAGES } from "../../src/read/surfaces";
import { formatUsd } from "../../src/web/format";
import { appendActivity } from "../../src/storage/activity";
import { testDeliveryContext } from "../helpers/alerts/deliveryContext";
import { startReceiver, waitFor, type Receiver } from "../helpers/alerts/receiver";
import { IDS, M } from "../helpers/read/seedMarket";
import { screenshot, signInWithWallet, useDappInChromium, type Tab } from "../helpers/web/browser";
import { WALLET } from "../helpers/web/webApp";

/** How far the document scrolls sideways (0 or less: it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const WIDTHS = [1280, 390] as const;

/**
 * Issue 33's phone, words and flows in Debian's Chromium at 1280 and 390 px (a 390×844 phone): the menu, the pools
 * list's first card, compare as a card per pool with the product's own figures, pools and kinds named in plain words,
 * a subscription limited to one pool, its confirmation above the form and focused, a test event's row updated in place.
 * Screenshots in test-output/screenshots/phone-*.png.
 */
describe("the dapp on a phone, in words, and its flows (Chromium, 1280 and 390 px)", function () {
  this.timeout(240_000);
  const web = useDappInChromium({ ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
  const tabs = {} as Record<(typeof WIDTHS)[number], Tab>;
  let receiver: Receiver;

  before(async function () {
    receiver = await startReceiver();
    tabs[1280] = await web.tab({ wallet: { account: WALLET }, width: 1280 });
    await signInWithWallet(tabs[1280].page, "/app/pools");
    tabs[390] = await web.tab({ width: 390, height: 844 });
    await tabs[390].context.addCookies(await tabs[1280].context.cookies());
  });

  after(async function () {
    await receiver?.close();
  });

  it("the menu: one line on a phone that opens (no JavaScript) with every link in view; the whole list at 1280", async function () {
    for (const width of WIDTHS) {
      const { page } = tabs[width];
      await page.goto("/app/alerts");
      const links = page.locator("nav.pages a");
      expect(await links.count()).to.equal(NAV_PAGES.length);
      const summary = page.locator("nav.pages summary");
      if (width === 1280) {
        expect(await summary.isVisible(), "no Menu button on a wide screen").to.equal(false);
        for (const link of await links.all()) expect(await link.isVisible()).to.equal(true);
        continue;
      }
      expect(await summary.textContent()).to.equal("Menu · Alerts");
      expect((await page.locator("nav.pages").boundingBox())!.height, "closed: one line").to.be.at.most(48);
      expect(await links.first().isVisible(), "closed: the links are folded").to.equal(false);
      await summary.click();
      for (const link of await links.all()) {
        const box = (await link.boundingBox())!;
        const label = (await link.textContent()) ?? "";
        expect(box.x, label).to.be.at.least(0);
        expect(box.x + box.width, label).to.be.at.most(390);
        expect(box.y + box.height, "every link on the first screen").to.be.at.most(844);
      }
      await page.screenshot({ path: (await screenshot(page, "phone-menu-open-390")).replace(".png", "-screen.png") });
    }
    // Without JavaScript the menu opens too (a <details>).
    const plain = await web.context({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    await plain.addCookies(await tabs[1280].context.cookies());
    const page = await plain.newPage();
    await page.goto("/app/pools");
    await page.locator("nav.pages summary").click();
    expect(await page.locator("nav.pages a", { hasText: "Alerts" }).isVisible()).to.equal(true);
  });

  it("the pools list: on a phone the first card starts on the first screen, horizon and confidence first", async function () {
    for (const width of WIDTHS) {
      const { page } = tabs[width];
      await page.goto("/app/pools");
      expect(await overflow(page)).to.be.at.most(0);
      const card = page.locator("tbody tr").first();
      const name = (await card.locator("th").boundingBox())!;
      expect(name.y, "the first pool starts on the first screen").to.be.below(width === 390 ? 844 - 60 : 900);
      if (width === 390) {
        const first = page.locator("tbody tr").nth(1);
        const horizon = (await first.locator('td[data-label="Horizon"], td.no-claim').first().boundingBox())!;
        const depth = (await first.locator('td[data-label="Depth"]').boundingBox())!;
        expect(horizon.y, "horizon and confidence before the depth").to.be.below(depth.y);
      }
      await page.screenshot({
        path: await screenshot(page, `phone-pools-${width}`).then((p) => p.replace(".png", "-screen.png")),
      });
    }
  });

  it("compare: a card per pool on a phone, with each pool's horizon, confidence and floor, yield compared by kind", async function () {
    const url = `/app/compare?pools=${[IDS.a, IDS.c, IDS.e, IDS.f].join(",")}`;
    const claim = (await (await fetch(`${web.base}/api/v1/pool/${IDS.e}`)).json()) as {
      horizon: number;
      confidence: number;
      claim: { floor: number };
    };
    for (const width of WIDTHS) {
      const { page } = tabs[width];
      await page.goto(url);
      expect(await overflow(page), "the page does not scroll sideways").to.be.at.most(0);
      const frame = page.locator(".table-wrap").first();
      expect(await frame.evaluate((f) => f.scrollWidth - f.clientWidth), "no 1,018 px table").to.be.at.most(0);
      const row = page.locator(`tr[data-pool="${IDS.e}"]`);
      expect((await row.locator('td[data-label="Horizon"]').textContent())!.trim()).to.equal(`${claim.horizon} days`);
      expect((await row.locator('td[data-label="Confidence"]').textContent())!.trim()).to.equal(
        `${Math.round(claim.confidence * 100)} %`,
      );
      expect((await row.locator('td[data-label="Floor"]').textContent())!.trim()).to.equal(
        formatUsd(claim.claim.floor),
      );
      // A pool without a claim says why, in the same place.
      expect(await page.locator(`tr[data-pool="${IDS.c}"] .no-claim-reason`).textContent()).to.match(
        /^No attestation: /,
      );
      // An AMM APY is not called larger than a lending supply rate: each kind's largest is named as such.
      expect(await page.locator(`tr[data-pool="${IDS.a}"] .tag.largest`).allTextContents()).to.include(
        "largest APY of the AMM pools",
      );
      expect(await row.locator(".tag.largest").allTextContents()).to.include(
        "largest supply rate of the lending pools",
      );
      if (width === 390) {
        // Each pool is a card: its cells stacked in the phone's width.
        const box = (await row.boundingBox())!;
        expect(box.x + box.width).to.be.at.most(390);
        const floor = (await row.locator('td[data-label="Floor"]').boundingBox())!;
        expect(floor.x + floor.width).to.be.at.most(390);
      }
      await screenshot(page, `phone-compare-${width}`);
    }
  });

  it("activity: pools by name linking to their page, no raw eip155 id as a label; each kind described", async function () {
    for (const width of WIDTHS) {
      const { page } = tabs[width];
      await page.goto("/app/activity");
      expect(await overflow(page)).to.be.at.most(0);
      const labels = page.locator("table.events a.pool-label");
      expect(await labels.count(), "events name their pools").to.be.greaterThan(0);
      for (const text of await labels.allTextContents()) expect(text).not.to.match(/eip155:/);
      expect(await page.locator("table.events").textContent()).not.to.match(/eip155:\d+:0x/);
      const first = labels.first();
      expect(await first.getAttribute("href")).to.match(/^\/app\/pools\/eip155%3A/);
      // Every kind of the filter has its plain line, the one declared beside the kinds.
      const helps = page.locator("form.filter .kind-help");
      expect(await helps.count()).to.equal(ACTIVITY_KINDS.length);
      expect(await helps.allTextContents()).to.deep.equal(ACTIVITY_KINDS.map((k) => ACTIVITY_KIND_DESCRIPTIONS[k]));
      await screenshot(page, `phone-activity-${width}`);
    }
  });

  it("alerts: each kind described; a subscription limited to one pool, confirmed above the form and focused", async function () {
    for (const width of WIDTHS) {
      const { page } = tabs[width];
      await page.goto("/app/alerts");
      const stale = page.getByRole("checkbox", { name: "pool.stale" });
      expect(await stale.getAttribute("aria-describedby")).to.match(/^kind-\d+-help$/);
      expect(await page.locator(`#${await stale.getAttribute("aria-describedby")}`).textContent()).to.equal(
        ACTIVITY_KIND_DESCRIPTIONS["pool.stale"],
      );
      expect(await page.locator("form[data-alert-form] .kind-help").count()).to.equal(ACTIVITY_KINDS.length);
      await page.getByLabel("Target URL").fill(`${receiver.url}/one-pool-${width}`);
      await stale.check();
      await page.getByLabel("Pool", { exact: true }).selectOption(IDS.a);
      await page.getByRole("button", { name: "Subscribe" }).click();
      const confirmation = page.locator("[data-new-secret]");
      await confirmation.waitFor({ state: "visible" });
      expect(await confirmation.evaluate((element) => element === document.activeElement), "focused").to.equal(true);
      const form = (await page.locator("form[data-alert-form]").boundingBox())!;
      expect((await confirmation.boundingBox())!.y, "above the form").to.be.below(form.y);
      expect(await confirmation.locator("[data-new-secret-title]").textContent()).to.equal(
        `Subscribed ${receiver.url}/one-pool-${width} to pool.stale, for WETH-USDC · Uniswap V2 · Ethereum only.`,
      );
      const row = page.locator("tbody tr", { hasText: `one-pool-${width}` });
      expect(await row.locator("[data-subscription-pool]").textContent()).to.match(
        /^only WETH-USDC · Uniswap V2 · Ethereum/,
      );
      if (width === 390) {
        await page.screenshot({ path: (await screenshot(page, "phone-alerts-390")).replace(".png", "-screen.png") });
      } else await screenshot(page, "phone-alerts-1280");
    }
    // The pool is stored and listed by the API; the page and the API read the same.
    const listed = (await (await tabs[1280].page.request.get("/app/api/alert-subscriptions")).json()) as {
      subscriptions: { url: string; pool: string | null }[];
    };
    expect(listed.subscriptions.map((s) => s.pool)).to.deep.equal([IDS.a, IDS.a]);
  });

  it("a pool-limited subscription is sent only the events about its pool; the keyed API takes the same field", async function () {
    const before = await web.store.db.selectFrom("alert_outbox").select("event_id").execute();
    await appendActivity(web.store.db, [
      { kind: "pool.stale", at: 1, pool: { chainId: 1, address: M.b }, summary: "another pool went stale", data: {} },
      { kind: "pool.stale", at: 2, pool: { chainId: 1, address: M.a }, summary: "the pool went stale", data: {} },
    ]);
    const queued = await web.store.db
      .selectFrom("alert_outbox as o")
      .innerJoin("activity_events as e", "e.id", "o.event_id")
      .select(["e.summary", "e.address"])
      .where("o.event_id", "not in", before.length === 0 ? [-1] : before.map((r) => r.event_id))
      .execute();
    expect(queued.map((q) => q.summary)).to.deep.equal(["the pool went stale", "the pool went stale"]);
    // The keyed API: the same body schema, with `pool` in any id shape.
    const { page } = tabs[1280];
    const key = (await (
      await page.request.post("/app/api/keys", { headers: { origin: web.base }, data: { label: "alerts" } })
    ).json()) as { key: string };
    const auth = { authorization: `Bearer ${key.key}` };
    const created = await fetch(`${web.base}/api/v1/alert-subscriptions`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ url: `${receiver.url}/keyed`, kinds: ["claim.graded"], pool: `1:${M.e}` }),
    });
    expect(created.status).to.equal(201);
    expect(((await created.json()) as { pool: string }).pool).to.equal(IDS.e);
    const unknown = await fetch(`${web.base}/api/v1/alert-subscriptions`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        url: `${receiver.url}/keyed`,
        kinds: ["claim.graded"],
        pool: `eip155:1:0x${"9".repeat(40)}`,
      }),
    });
    expect(unknown.status).to.equal(404);
    // A pool with only kinds that are never about a pool would never receive anything: refused, naming the kinds.
    const never = await fetch(`${web.base}/api/v1/alert-subscriptions`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ url: `${receiver.url}/keyed`, kinds: ["ingest.pass", "registry.Slashed"], pool: IDS.a }),
    });
    expect(never.status).to.equal(400);
    const refusal = ((await never.json()) as { error: { field: string; message: string } }).error;
    expect(refusal.field).to.equal("kinds");
    expect(refusal.message).to.match(/^None of these kinds is ever about a pool/);
  });

  it("after 'Send a test event' the row's deliveries update without a reload", async function () {
    const deliver = (worker: string) =>
      deliverDueAlerts(testDeliveryContext(web.store.db, { retryScheduleS: [0.05], workerId: worker }));
    await deliver("phone-flush"); // what earlier tests queued goes out first
    for (const width of WIDTHS) {
      const { page } = tabs[width];
      await page.goto("/app/alerts");
      const row = page.locator("tbody tr", { hasText: `one-pool-${width}` });
      const cell = row.locator("[data-deliveries-text]");
      const start = /^0 pending, (\d+) delivered, 0 failed$/.exec((await cell.textContent())!.trim());
      expect(start, "nothing pending at first").not.to.equal(null);
      const delivered = Number(start![1]);
      await row.getByRole("button", { name: /^Send a test event/ }).click();
      await page.locator("[data-alert-row-status]", { hasText: "pending" }).waitFor();
      const text = async () => ((await cell.textContent()) ?? "").trim();
      await waitFor(async () => (await text()).startsWith("1 pending"), "the row shows it pending", 10_000);
      await deliver(`phone-${width}`);
      await waitFor(
        async () => (await text()) === `0 pending, ${delivered + 1} delivered, 0 failed`,
        "the row shows it delivered",
        10_000,
      );
      await page.locator("[data-alert-row-status]", { hasText: "Test event delivered." }).waitFor();
    }
  });
});
