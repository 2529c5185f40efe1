import { join } from "node:path";
import { expect } from "chai";
import type { Page } from "playwright-core";
import type { GetPoolHistoryReturnType } from "../../src/read/getPoolHistory";
import { formatRate, formatUsd } from "../../src/web/format";
import { IDS } from "../helpers/read/seedMarket";
import type { BrowserContext } from "playwright-core";
import { SCREENSHOTS, signInWithWallet, useDappInChromium, sectionShot } from "../helpers/web/browser";
import { OTHER_WALLET, WALLET } from "../helpers/web/webApp";

/** Where point `index` of the history chart is on screen (its day's SVG x, mapped through the SVG's box). */
async function pointOnScreen(page: Page, index: number): Promise<{ x: number; y: number }> {
  return page.locator("figure.history").evaluate((figure, i) => {
    const data = JSON.parse(figure.querySelector("script[data-crosshair]")!.textContent!) as {
      points: [number, number | null, string, string][];
    };
    const svg = figure.querySelector("svg")!;
    const box = svg.getBoundingClientRect();
    const [x, y] = data.points[i < 0 ? data.points.length + i : i];
    const scale = box.width / svg.viewBox.baseVal.width;
    return { x: box.left + x * scale, y: box.top + (y ?? 150) * scale };
  }, index);
}

/** The text the chart's aria-live region holds. */
const live = (page: Page, figure = "figure.history") => page.locator(`${figure} [aria-live="polite"]`).textContent();

/**
 * The charts of issue 33 in Debian's Chromium at 1280 and 390 px: a crosshair on every time-series chart by mouse,
 * touch and keyboard, its values announced in an aria-live region, the server-rendered SVG unchanged without JS.
 */
describe("charts in a real browser (Chromium): the crosshair, at 1280 and 390 px", function () {
  this.timeout(180_000);
  const web = useDappInChromium();
  let history: GetPoolHistoryReturnType;
  let cookies: Awaited<ReturnType<BrowserContext["cookies"]>>;
  /** A signed-in tab at `width` (the pages are wallet-gated): the session cookie of the suite's one sign-in. */
  const tab = async (width: number) => {
    const opened = await web.tab({ width });
    await opened.context.addCookies(cookies);
    opened.page.setDefaultTimeout(15_000);
    return opened;
  };
  /** A bare signed-in context (touch, no JavaScript). */
  const bare = async (options: Parameters<typeof web.context>[0]) => {
    const context = await web.context(options);
    await context.addCookies(cookies);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return { context, page };
  };

  before(async function () {
    const signIn = await web.tab({ wallet: { account: WALLET }, width: 1280 });
    await signInWithWallet(signIn.page, "/app/pools");
    cookies = await signIn.context.cookies();
    history = (await (await fetch(`${web.base}/api/v1/pool/${IDS.e}/history`)).json()) as GetPoolHistoryReturnType;
  });

  for (const width of [1280, 390]) {
    it(`at ${width} px: the mouse's crosshair shows the nearest day with its year and value`, async function () {
      const { page } = await tab(width);
      await page.goto(`/app/pools/${IDS.e}`);
      const last = history.days[history.days.length - 1];
      await page.locator("figure.history svg").evaluate((svg) => svg.scrollIntoView({ block: "center" }));
      const at = await pointOnScreen(page, -1);
      await page.mouse.move(at.x, at.y);
      const figure = page.locator("figure.history");
      expect(await figure.getAttribute("data-crosshair-index")).to.equal(String(history.days.length - 1));
      const tip = figure.locator(".crosshair-tip");
      expect(await tip.isVisible()).to.equal(true);
      const text = (await tip.textContent())!;
      expect(text).to.match(new RegExp(`^${last.date}: `));
      expect(text).to.include(last.lowestDepthUsd === null ? "no data" : formatUsd(last.lowestDepthUsd));
      // The readout stays inside the viewport (no sideways scroll on a phone).
      const box = (await tip.boundingBox())!;
      expect(box.x).to.be.at.least(0);
      expect(box.x + box.width).to.be.at.most(width);
      // The crosshair's line sits on the day's x.
      const lineX = await figure.locator(".crosshair line").getAttribute("x1");
      const points = JSON.parse((await figure.locator("script[data-crosshair]").textContent())!) as {
        points: [number][];
      };
      expect(Number(lineX)).to.equal(points.points[points.points.length - 1][0]);
      // Moving to the first day moves it there.
      const first = await pointOnScreen(page, 0);
      await page.mouse.move(first.x, first.y);
      expect(await tip.textContent()).to.match(new RegExp(`^${history.days[0].date}: `));
      await page.locator("figure.history").evaluate((figure) => figure.scrollIntoView());
      const shown = await pointOnScreen(page, -8);
      await page.mouse.move(shown.x, shown.y);
      expect(await tip.textContent()).to.match(new RegExp(`^${history.days[history.days.length - 8].date}: `));
      await page.screenshot({ path: join(SCREENSHOTS, `charts-crosshair-mouse-${width}.png`) });
      // Leaving the chart hides it.
      await page.mouse.move(2, 2);
      expect(await tip.isVisible()).to.equal(false);
    });

    it(`at ${width} px: the keyboard moves the crosshair day by day and the aria-live region says each day`, async function () {
      const { page } = await tab(width);
      await page.goto(`/app/pools/${IDS.e}`);
      const svg = page.locator("figure.history svg");
      expect(await svg.getAttribute("tabindex")).to.equal("0");
      const hint = await svg.getAttribute("aria-describedby");
      expect(await page.locator(`#${hint}`).textContent()).to.include("Left and Right arrow keys");
      await svg.focus();
      const n = history.days.length;
      const said = (i: number) => new RegExp(`^${history.days[i].date}: `);
      expect(await live(page)).to.match(said(n - 1));
      await page.keyboard.press("ArrowLeft");
      expect(await live(page)).to.match(said(n - 2));
      await page.keyboard.press("ArrowLeft");
      expect(await live(page)).to.match(said(n - 3));
      await page.keyboard.press("ArrowRight");
      expect(await live(page)).to.match(said(n - 2));
      await page.keyboard.press("Home");
      expect(await live(page)).to.match(said(0));
      await page.keyboard.press("ArrowLeft");
      expect(await live(page), "Left at the first day stays there").to.match(said(0));
      await page.keyboard.press("End");
      const lastText = (await live(page))!;
      expect(lastText).to.match(said(n - 1));
      // The claim whose window covers the latest day is read out with its floor.
      const covering = history.attestations.filter(
        (c) => c.issuedAt < Date.parse(`${history.days[n - 1].date}T00:00:00Z`) / 1000 + 86_400,
      );
      if (covering.length > 0)
        expect(lastText).to.include(`floor ${formatUsd(covering[covering.length - 1].floorUsd)}`);
      expect(await page.locator("figure.history .crosshair-tip").isVisible()).to.equal(true);
      await sectionShot(page, "figure.history", `charts-crosshair-keyboard-${width}`);
      // The volume page's bar chart has one too.
      await page.goto("/app/volume");
      await page.locator("figure.has-crosshair svg").first().focus();
      expect(await live(page, "figure.has-crosshair")).to.match(/^\d{4}-\d{2}-\d{2}: (swap volume \$|no data)/);
    });

    it(`at ${width} px: a tap and a sideways drag on a touch screen move the crosshair`, async function () {
      const { context, page } = await bare({ viewport: { width, height: 900 }, hasTouch: true, isMobile: width < 500 });
      await page.goto(`/app/pools/${IDS.e}`);
      await page.locator("figure.history svg").evaluate((svg) => svg.scrollIntoView({ block: "center" }));
      const first = await pointOnScreen(page, 0);
      await page.touchscreen.tap(first.x, first.y);
      const figure = page.locator("figure.history");
      expect(await figure.getAttribute("data-crosshair-index")).to.equal("0");
      expect(await live(page)).to.match(new RegExp(`^${history.days[0].date}: `));
      // A drag towards the latest day (touch events, as a finger sends them).
      const last = await pointOnScreen(page, -1);
      const cdp = await context.newCDPSession(page);
      const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number) =>
        cdp.send("Input.dispatchTouchEvent", {
          type,
          touchPoints: type === "touchEnd" ? [] : [{ x, y: first.y }],
        });
      await touch("touchStart", first.x);
      for (let step = 1; step <= 10; step++) await touch("touchMove", first.x + ((last.x - first.x) * step) / 10);
      await touch("touchEnd", last.x);
      expect(await figure.getAttribute("data-crosshair-index")).to.equal(String(history.days.length - 1));
      expect(await live(page)).to.match(new RegExp(`^${history.days[history.days.length - 1].date}: `));
      expect(await figure.locator(".crosshair-tip").isVisible(), "the readout stays after the finger lifts").to.equal(
        true,
      );
      await sectionShot(page, "figure.history", `charts-crosshair-touch-${width}`);
    });
  }

  it("leaves the server-rendered chart as it is without JavaScript (no focus stop, no readout, the caption and points)", async function () {
    const { page } = await bare({ javaScriptEnabled: false, viewport: { width: 390, height: 900 } });
    await page.goto(`/app/pools/${IDS.e}`);
    const svg = page.locator("figure.history svg");
    expect(await svg.getAttribute("tabindex")).to.equal(null);
    expect(await page.locator("figure.history .crosshair-tip").count()).to.equal(0);
    expect(await page.locator("figure.history .days > *").count()).to.equal(history.days.length);
    expect(await page.locator("#history-caption").textContent()).to.include("Daily lowest depth");
    expect(await page.locator("script[data-crosshair]").first().isVisible()).to.equal(false);
  });
});

/**
 * The pool history's range toggles in Chromium at 1280, 390 and 360 px: links that the server renders (they work
 * without JavaScript), swapped in place with JavaScript; each range plots its days, the latest day in view.
 */
describe("charts in a real browser (Chromium): the history's range toggles", function () {
  this.timeout(180_000);
  const web = useDappInChromium();
  let cookies: Awaited<ReturnType<BrowserContext["cookies"]>>;
  const expected: Record<string, number> = { "7d": 7, "30d": 30, "90d": 90, "1y": 365 };

  before(async function () {
    const signIn = await web.tab({ wallet: { account: WALLET }, width: 1280 });
    await signInWithWallet(signIn.page, "/app/pools");
    cookies = await signIn.context.cookies();
  });

  /** The history's plotted days, the latest one's right edge, and how far the document scrolls sideways. */
  const plotted = (page: Page) =>
    page.locator("figure.history").evaluate((figure) => {
      const days = figure.querySelectorAll(".days > *");
      const last = days[days.length - 1].getBoundingClientRect();
      const root = document.documentElement;
      return {
        days: days.length,
        lastRight: last.right,
        lastLeft: last.left,
        viewport: root.clientWidth,
        overflow: root.scrollWidth - root.clientWidth,
        lastTitle: days[days.length - 1].querySelector("title")!.textContent!.trim(),
      };
    });

  for (const width of [1280, 390, 360]) {
    it(`at ${width} px: each toggle plots its range, swapped in place, with the latest day in view`, async function () {
      const { page, context } = await web.tab({ width });
      await context.addCookies(cookies);
      page.setDefaultTimeout(15_000);
      await page.goto(`/app/pools/${IDS.e}`);
      const api = (await (
        await fetch(`${web.base}/api/v1/pool/${IDS.e}/history?days=730`)
      ).json()) as GetPoolHistoryReturnType;
      const latest = api.days[api.days.length - 1].date;
      const firstStored = api.days.find((d) => d.lowestDepthUsd !== null)!.date;
      const allDays = api.days.length - api.days.findIndex((d) => d.lowestDepthUsd !== null);
      const toggles = page.getByRole("navigation", { name: "History range" });
      expect(await toggles.getByRole("link").allTextContents()).to.deep.equal([
        "7 days",
        "30 days",
        "90 days",
        "1 year",
        "All",
      ]);
      expect(await toggles.locator("a[aria-current]").textContent()).to.equal("90 days");
      // A mark on the window: it survives only if the toggles swap the section in place (no page load).
      await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
      for (const [label, range] of [
        ["7 days", "7d"],
        ["1 year", "1y"],
        ["All", "all"],
        ["30 days", "30d"],
      ]) {
        await toggles.getByRole("link", { name: label }).click();
        await page.waitForURL(`**range=${range}*`);
        await page.locator(`nav.range-toggles a[data-range="${range}"][aria-current]`).waitFor();
        const shown = await plotted(page);
        expect(shown.days, range).to.equal(range === "all" ? allDays : expected[range]);
        expect(shown.lastTitle, "the last point is the latest day").to.match(new RegExp(`^${latest}`));
        expect(shown.lastRight, `${range}: the latest day's point is in view`).to.be.at.most(shown.viewport);
        expect(shown.lastLeft).to.be.at.least(0);
        expect(shown.overflow, `${range}: no sideways scroll`).to.be.at.most(0);
        if (range === "all") {
          const first = await page.locator("figure.history text.xlabel").first().textContent();
          expect(first, "All starts at the first stored day, with its year").to.equal(firstStored);
        }
        await page.locator("#history-heading").evaluate((heading) => heading.scrollIntoView());
        await page.screenshot({ path: join(SCREENSHOTS, `charts-range-${range}-${width}.png`) });
      }
      expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).to.equal(true);
      // The crosshair works on the swapped-in chart.
      await page.locator("figure.history svg").focus();
      expect(await live(page)).to.match(new RegExp(`^${latest}: `));
      // Back returns to the previous range.
      await page.goBack();
      await page.locator('nav.range-toggles a[data-range="all"][aria-current]').waitFor();
    });
  }

  it("works without JavaScript: a toggle is a link the server renders", async function () {
    const context = await web.context({ javaScriptEnabled: false, viewport: { width: 390, height: 900 } });
    await context.addCookies(cookies);
    const page = await context.newPage();
    await page.goto(`/app/pools/${IDS.e}`);
    await page.getByRole("navigation", { name: "History range" }).getByRole("link", { name: "7 days" }).click();
    await page.waitForURL("**range=7d*");
    expect(await page.locator("figure.history .days > *").count()).to.equal(7);
    expect(await page.locator("#history-heading").textContent()).to.include("the last 7 days");
  });
});

/**
 * The pool page's volume chart (the history reader's Swap-log `volumeUsd`) and the APY split it cannot show, in
 * Chromium at 1280 and 390 px.
 */
describe("charts in a real browser (Chromium): a pool's volume chart and the APY split", function () {
  this.timeout(180_000);
  const web = useDappInChromium();
  let cookies: Awaited<ReturnType<BrowserContext["cookies"]>>;

  before(async function () {
    // Pool a's feed row split its APY (as a yields pass with apyBase and apyReward writes it); pool b's did not.
    await web.store.db
      .updateTable("pools")
      .set({ apy_base_percent: 1.25, apy_reward_percent: 3.25 })
      .where("chain_id", "=", 1)
      .where("address", "=", IDS.a.split(":")[2])
      .execute();
    const signIn = await web.tab({ wallet: { account: WALLET }, width: 1280 });
    await signInWithWallet(signIn.page, "/app/pools");
    cookies = await signIn.context.cookies();
  });

  for (const width of [1280, 390]) {
    it(`at ${width} px: an AMM pool's daily swap volume, read by the crosshair, the latest day in view`, async function () {
      const { page, context } = await web.tab({ width });
      await context.addCookies(cookies);
      page.setDefaultTimeout(15_000);
      const api = (await (
        await fetch(`${web.base}/api/v1/pool/${IDS.a}/history?days=30`)
      ).json()) as GetPoolHistoryReturnType & { days: { volumeUsd: number | null }[] };
      const stored = api.days.filter((d) => d.volumeUsd !== null);
      expect(stored.length, "the fixture stores Swap-log volume for pool a").to.be.greaterThan(0);
      await page.goto(`/app/pools/${IDS.a}?range=30d`);
      const figure = page.locator("figure:has(#pool-volume-caption)");
      expect(await figure.locator("svg rect.bar").count()).to.equal(stored.length);
      await figure.locator("svg").focus();
      const last = api.days[api.days.length - 1];
      const said = (await figure.locator('[aria-live="polite"]').textContent())!;
      expect(said).to.equal(
        `${last.date}: ${last.volumeUsd === null ? "no data (not zero)" : `swap volume ${formatUsd(last.volumeUsd)}`}`,
      );
      await page.keyboard.press("Home");
      const first = api.days[0];
      expect(await figure.locator('[aria-live="polite"]').textContent()).to.match(new RegExp(`^${first.date}: `));
      await page.keyboard.press("End");
      const bar = (await figure.locator("svg > g").last().boundingBox())!;
      const viewport = await page.evaluate(() => document.documentElement.clientWidth);
      expect(bar.x + bar.width, "the latest day's bar is in view").to.be.at.most(viewport);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).to.equal(0);
      // The APY split as the feed gave it, observed with the yield; the compare API gives the same.
      const row = (name: string) =>
        page.locator("table tr", { has: page.locator(`th[scope="row"]`, { hasText: new RegExp(`^${name}$`) }) });
      expect(await row("Base APY").locator("td").first().textContent()).to.equal(formatRate(1.25, "APY"));
      expect(await row("Reward APY").locator("td").first().textContent()).to.equal(formatRate(3.25, "APY"));
      const compare = (await (await fetch(`${web.base}/api/v1/compare?pools=${IDS.a}`)).json()) as {
        pools: { yieldSplit: unknown }[];
      };
      expect(compare.pools[0].yieldSplit).to.deep.equal({ basePct: 1.25, rewardPct: 3.25 });
      expect(await page.locator("[data-apy-split]").textContent()).to.include("Base APY is the pool's own yield");
      await page.locator("#pool-volume-heading").evaluate((heading) => heading.scrollIntoView());
      await page.screenshot({ path: join(SCREENSHOTS, `charts-pool-volume-${width}.png`) });
      await page.locator("#now-heading").evaluate((heading) => heading.scrollIntoView());
      await page.screenshot({ path: join(SCREENSHOTS, `charts-apy-split-${width}.png`) });
      // A pool whose feed row gave no split: said so, no number invented.
      await page.goto(`/app/pools/${IDS.b}`);
      expect(await page.locator('th[scope="row"]', { hasText: /^Base APY$/ }).count()).to.equal(0);
      const split = (await page.locator("[data-apy-split]").textContent())!;
      expect(split).to.include("Base and reward APY: not given");
      expect(split).not.to.match(/\d+(\.\d+)? ?%/);
      // A lending reserve: no volume, and the page says why.
      await page.goto(`/app/pools/${IDS.e}`);
      expect(await page.locator("#pool-volume-caption").count()).to.equal(0);
      expect(await page.locator("[data-no-volume]").textContent()).to.include("Not measured: a lending reserve");
      expect(await page.locator("[data-apy-split]").count()).to.equal(0);
    });
  }
});

/**
 * The pools list's search (a GET form, server-side) and the watchlist kept per signed-in wallet (star forms that POST,
 * server-side storage), in Chromium at 1280 and 390 px.
 */
describe("the pools list in a real browser (Chromium): search and a watchlist per wallet", function () {
  this.timeout(180_000);
  const web = useDappInChromium();

  /** The pools the list shows, by symbol. */
  const listed = (page: Page) => page.locator("table tbody .pool-symbol").allTextContents();

  for (const width of [1280, 390]) {
    it(`at ${width} px: the search (a GET form the server answers) filters by token, protocol and chain`, async function () {
      const { page } = await web.tab({ wallet: { account: WALLET }, width });
      await signInWithWallet(page, "/app/pools");
      const all = await listed(page);
      expect(all).to.include.members(["WETH-USDC", "WBTC-USDC", "aUSDC", "ARB-USDC"]);
      // Folded with sort and filter until one is on, so that a phone's first screen shows a pool.
      const fold = page.locator("details.filter.view");
      expect(await page.getByRole("searchbox", { name: "Search" }).isVisible()).to.equal(false);
      const search = async (q: string) => {
        if (!(await fold.evaluate((details) => (details as HTMLDetailsElement).open))) {
          await fold.locator("summary").click();
        }
        await page.getByRole("searchbox", { name: "Search" }).fill(q);
        await page.getByRole("button", { name: "Show" }).click();
        await page.waitForURL(`**q=${encodeURIComponent(q).replace(/%20/g, "+")}*`);
        return listed(page);
      };
      // A token: every pool whose name has it, and no other.
      const usdc = await search("usdc");
      expect(usdc.length).to.be.greaterThan(0);
      expect(usdc.every((symbol) => /usdc/i.test(symbol))).to.equal(true);
      expect(usdc.length).to.be.lessThan(all.length);
      // A protocol by its display name and a chain by its name, together.
      const sushi = await search("sushi");
      expect(sushi).to.deep.equal(["WBTC-USDC"]);
      const arbitrum = await search("arbitrum usdc");
      expect(arbitrum.length).to.be.greaterThan(0);
      expect(arbitrum).not.to.include("WETH-USDC");
      expect(await page.locator("p.muted", { hasText: "Showing" }).textContent()).to.include(
        `Showing ${arbitrum.length} of`,
      );
      expect(await search("no-such-pool-xyz")).to.deep.equal([]);
      expect(await page.getByText("No pool matches these filters.").count()).to.be.greaterThan(0);
      await search("usdc");
      await page.locator("form.filters").evaluate((form) => form.scrollIntoView());
      await page.screenshot({ path: join(SCREENSHOTS, `pools-search-${width}.png`) });
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).to.equal(0);
    });
  }

  it("keeps a watchlist per wallet: starred on the list and the pool page, kept across a reload, never another wallet's", async function () {
    const mine = await web.tab({ wallet: { account: WALLET }, width: 390 });
    await signInWithWallet(mine.page, "/app/pools");
    const { page } = mine;
    // Star two pools: one from the list, one from its page (forms that POST, answered with a 303 back).
    await page.getByRole("button", { name: "Watch WBTC-USDC" }).click();
    await page.waitForURL("**/app/pools");
    expect(await page.getByRole("button", { name: "Watch WBTC-USDC" }).getAttribute("aria-pressed")).to.equal("true");
    await page.goto(`/app/pools/${IDS.e}`);
    const star = page.locator("form.watch-toggle button");
    expect(await star.getAttribute("aria-pressed")).to.equal("false");
    await star.click();
    await page.waitForURL(`**/app/pools/${encodeURIComponent(IDS.e)}`);
    expect(await page.locator("form.watch-toggle button").getAttribute("aria-pressed")).to.equal("true");
    await page.locator("form.watch-toggle").evaluate((form) => form.scrollIntoView());
    await page.screenshot({ path: join(SCREENSHOTS, "pools-watch-pool-390.png") });
    // The watchlist filter, after a reload.
    await page.goto("/app/pools?watchlist=1");
    await page.reload();
    expect((await listed(page)).sort()).to.deep.equal(["WBTC-USDC", "aUSDC"]);
    expect(await page.getByLabel(/Only my watchlist/).isChecked()).to.equal(true);
    await page.screenshot({ path: join(SCREENSHOTS, "pools-watchlist-390.png"), fullPage: true });
    // Unstar one from the list.
    await page.getByRole("button", { name: "Watch WBTC-USDC" }).click();
    await page.waitForURL("**/app/pools");
    await page.goto("/app/pools?watchlist=1");
    expect(await listed(page)).to.deep.equal(["aUSDC"]);

    // Another wallet sees its own (empty) watchlist and no star pressed.
    const other = await web.tab({ wallet: { account: OTHER_WALLET }, width: 1280 });
    await signInWithWallet(other.page, "/app/pools");
    expect(await other.page.locator('form.watch-toggle button[aria-pressed="true"]').count()).to.equal(0);
    await other.page.goto("/app/pools?watchlist=1");
    expect(await listed(other.page)).to.deep.equal([]);
    expect(await other.page.getByText("Your watchlist is empty").count()).to.equal(1);
    await other.page.goto(`/app/pools/${IDS.e}`);
    expect(await other.page.locator("form.watch-toggle button").getAttribute("aria-pressed")).to.equal("false");
    await other.page.goto("/app/pools?watchlist=1");
    await other.page.screenshot({ path: join(SCREENSHOTS, "pools-watchlist-other-1280.png") });

    // Without the session, or from another origin, the star's POST changes nothing.
    const anonymous = await fetch(`${web.base}/app/pools/${encodeURIComponent(IDS.a)}/watch`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: web.base },
      body: "",
    });
    expect(anonymous.status).to.equal(303);
    expect(anonymous.headers.get("location")).to.match(/sign-in/);
    const cookie = (await mine.context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const foreign = await fetch(`${web.base}/app/pools/${encodeURIComponent(IDS.a)}/watch`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example", cookie },
      body: "",
    });
    expect(foreign.status).to.equal(403);
    await page.goto("/app/pools?watchlist=1");
    expect(await listed(page)).to.deep.equal(["aUSDC"]);
  });
});
