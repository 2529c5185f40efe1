import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import type { Page } from "playwright-core";
import { formatUsd } from "../../src/web/format";
import { IDS } from "../helpers/read/seedMarket";
import { SCREENSHOTS, screenshot, signedInDesktopAndPhone, useDappInChromium, type Tab } from "../helpers/web/browser";
import { WALLET } from "../helpers/web/webApp";

/** A screenshot of what the viewport shows (not the whole page), as `test-output/screenshots/<name>.png`. */
async function viewportShot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** How far the page scrolls sideways (0 when it fits the viewport). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * The pool pages (docs/dapp.md) in Debian's Chromium against the real app: the pools list sorted and filtered by plain
 * links and a GET form, a pool's history chart (named by its caption) with its table, the stale pool's page, at 1280
 * and 390 px, with the screenshots the README shows (test-output/screenshots/pools-*.png, pool-history-*.png).
 */
describe("pool pages in a real browser (Chromium): list, history, stale pool, at 1280 and 390 px", function () {
  this.timeout(180_000);
  const web = useDappInChromium();
  let desktop: Tab;
  let phone: Tab;

  before(async function () {
    ({ desktop, phone } = await signedInDesktopAndPhone(web, WALLET));
  });

  it("sorts the pools list from a column header and filters it with the form, without scripts of its own", async function () {
    const { page } = desktop;
    await page.goto("/app/pools");
    await page.getByRole("link", { name: "Depth" }).click();
    await page.waitForURL("**/app/pools?sort=depth&order=desc");
    expect(await page.locator('th[aria-sort="descending"]').textContent()).to.match(/Depth/);
    const first = page.locator("tbody tr").first();
    expect(await first.locator(".pool-symbol").textContent()).to.equal("aUSDC");
    const amount = first.locator("data.amount");
    expect(await amount.textContent()).to.equal("$18M");
    expect(await amount.getAttribute("title")).to.equal(formatUsd(18_000_000));
    await page.getByLabel("Chain").selectOption("42161");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL("**/app/pools?chain=42161**");
    expect(await page.locator("tbody tr").count()).to.equal(3);
    expect(await page.locator('th[aria-sort="descending"]').count(), "the sort is kept").to.equal(1);
    await page.goto("/app/pools?sort=horizon");
    await screenshot(page, "pools-1280");
    await page.goto("/app/pools?sort=depth");
    await viewportShot(page, "pools-by-depth-1280");
    await phone.page.goto("/app/pools?sort=horizon");
    expect(await overflow(phone.page)).to.be.at.most(0);
    await screenshot(phone.page, "pools-390");
    await viewportShot(phone.page, "pools-390-top");
  });

  it("draws a pool's history with the claims' floors, named by its caption, followed by the same days in a table", async function () {
    const history = await (await fetch(`${web.base}/api/v1/pool/${IDS.e}/history`)).json();
    const { page } = desktop;
    await page.goto(`/app/pools/${IDS.e}`);
    await page.locator('[data-verify][data-result="valid"]').waitFor();
    const chart = page.getByRole("img", { name: /Daily lowest depth of aUSDC/ });
    expect(await chart.count()).to.equal(1);
    expect(await page.locator("figure.history .claims line").count()).to.equal(history.attestations.length);
    await page.getByText(/^The \d+ days as a table/).click();
    const rows = page.getByRole("table", { name: /Daily lows/ }).locator("tbody tr");
    expect(await rows.count()).to.equal(history.days.length);
    const last = history.days[history.days.length - 1];
    expect(await rows.last().locator("th").textContent()).to.equal(last.date);
    expect(await rows.last().locator("td").first().textContent()).to.equal(formatUsd(last.lowestDepthUsd));
    await screenshot(page, "pool-history-1280");
    await page.locator("details.history-table summary").click();
    await page.locator("#history-heading").evaluate((heading) => heading.scrollIntoView());
    await viewportShot(page, "pool-history-chart-1280");
    await phone.page.goto(`/app/pools/${IDS.e}`);
    await phone.page.locator('[data-verify][data-result="valid"]').waitFor();
    expect(await overflow(phone.page)).to.be.at.most(0);
    await screenshot(phone.page, "pool-history-390");
    await phone.page.locator("#history-heading").evaluate((heading) => heading.scrollIntoView());
    await viewportShot(phone.page, "pool-history-chart-390");
  });

  it("gives the stale, unattested pool a page with since when it is stale, why there is no attestation, its history", async function () {
    const { page } = desktop;
    const response = await page.goto(`/app/pools/${IDS.d}`);
    expect(response?.status()).to.equal(200);
    expect(await page.getByText(/^Stale since/).count()).to.equal(1);
    expect(await page.getByRole("heading", { name: "No attestation yet" }).count()).to.equal(1);
    expect(await page.getByRole("img", { name: /Daily lowest depth of CBETH-WETH/ }).count()).to.equal(1);
    expect(await page.locator("tbody tr.feed-daily").count()).to.be.greaterThan(0);
    await screenshot(page, "pool-stale-1280");
    await phone.page.goto(`/app/pools/${IDS.d}`);
    expect(await overflow(phone.page)).to.be.at.most(0);
    await screenshot(phone.page, "pool-stale-390");
  });
});
