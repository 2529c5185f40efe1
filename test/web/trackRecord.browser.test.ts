import { join } from "node:path";
import { expect } from "chai";
import type { Page } from "playwright-core";
import type { GetAccuracyReturnType } from "../../src/read/getAccuracy";
import type { GetPoolClaimsReturnType } from "../../src/read/getPoolClaims";
import type { GetPoolHistoryReturnType } from "../../src/read/getPoolHistory";
import { formatUsd } from "../../src/web/format";
import { SCREENSHOTS, screenshot, signInWithWallet, type Tab, sectionShot } from "../helpers/web/browser";
import { useDemoDappInChromium } from "../helpers/web/demoDapp";
import { WALLET } from "../helpers/web/webApp";

/** How far the document scrolls sideways: scrollWidth − clientWidth (0 when it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * The track record (issue 29) in Debian's Chromium on the demo (its simulated history issues claims, and the closed
 * windows are graded): a pool's page lists its claims with the grades `GET /api/v1/pool/{pool}/claims` gives and draws
 * them on the history chart; the model page sets `GET /api/v1/accuracy` beside the backtest; both at 1280 and 390 px,
 * without sideways scroll (screenshots track-record-*.png, model-live-*.png).
 */
describe("track record in a real browser (Chromium, the demo's graded claims), at 1280 and 390 px", function () {
  this.timeout(300_000);
  const demo = useDemoDappInChromium();
  let desktop: Tab;
  let phone: Tab;
  /** The demo pool with the most failed claims (and held ones too): the richest track record. */
  let pool: { id: string; symbol: string };
  let record: GetPoolClaimsReturnType;

  before(async function () {
    desktop = await demo.tab({ wallet: { account: WALLET }, width: 1280 });
    await signInWithWallet(desktop.page, "/app/model");
    phone = await demo.tab({ width: 390 });
    await phone.context.addCookies(await desktop.context.cookies());
    const { pools } = await demo.json<{ pools: { id: string; symbol: string }[] }>("/api/v1/pools");
    let best = -1;
    for (const candidate of pools) {
      const claims = await demo.json<GetPoolClaimsReturnType>(`/api/v1/pool/${candidate.id}/claims`);
      const failed = claims.claims.filter((c) => c.outcome === "failed").length;
      const held = claims.claims.filter((c) => c.outcome === "held").length;
      if (held > 0 && failed > best) [best, pool, record] = [failed, candidate, claims];
    }
    expect(best, "a demo pool with held and failed claims").to.be.greaterThan(0);
  });

  it("lists a pool's claims with the API's outcomes and floors, and draws each one's floor coloured by its grade", async function () {
    const history = await demo.json<GetPoolHistoryReturnType>(`/api/v1/pool/${pool.id}/history`);
    const { page } = desktop;
    await page.goto(`/app/pools/${pool.id}`);
    await page.locator('[data-verify][data-result="valid"]').waitFor();
    const table = page.getByRole("table", { name: /The pool's claims, newest first/ });
    const rows = table.locator("tbody tr");
    expect(await rows.count()).to.equal(record.claims.length);
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        outcome: tr.getAttribute("data-outcome"),
        tag: tr.querySelector(".tag.outcome")?.textContent,
        floor: tr.querySelector("[data-floor]")?.textContent,
        failing: tr.querySelector('[data-label="First failing day"]')?.textContent?.trim(),
      })),
    );
    expect(shown).to.deep.equal(
      record.claims.map((c) => ({
        outcome: c.outcome,
        tag: c.outcome,
        floor: formatUsd(c.floorUsd),
        failing: c.outcome === "failed" ? c.lowestDepthDate : "—",
      })),
    );
    const count = (outcome: string) => record.claims.filter((c) => c.outcome === outcome).length;
    const summary = await page.locator("#record-heading + p").textContent();
    expect(summary!.replace(/\s+/g, " ")).to.include(
      `${count("held")} held, ${count("failed")} failed and ${count("void")} void`,
    );

    // The chart: one floor per claim of the history, coloured by the grade the track record gives it.
    const chart = page.getByRole("img", { name: new RegExp(`Daily lowest depth of ${pool.symbol}`) });
    expect(await chart.count()).to.equal(1);
    const marks = await page
      .locator("figure.history .claims g[data-outcome]")
      .evaluateAll((gs) => gs.map((g) => [Number(g.getAttribute("data-issued-at")), g.getAttribute("data-outcome")]));
    expect(marks.length).to.equal(history.attestations.length);
    const outcomeOf = new Map(record.claims.map((c) => [c.issuedAt, c.outcome]));
    for (const [issuedAt, outcome] of marks) expect(outcome).to.equal(outcomeOf.get(issuedAt as number) ?? "other");
    expect(marks.filter(([, outcome]) => outcome === "failed").length).to.equal(count("failed"));
    expect(marks.filter(([, outcome]) => outcome === "held").length).to.equal(count("held"));
    // Every failed claim's first failing day is crossed, and the legend names each grade drawn.
    expect(await page.locator("figure.history .fails g").count()).to.equal(count("failed"));
    const legend = (await page.locator("#history-caption ul.legend").textContent())!.replace(/\s+/g, " ");
    expect(legend).to.include("Floor of a claim that held").and.include("Floor of a claim that failed");
    await screenshot(page, "track-record-1280");
    await page.locator("#history-heading").evaluate((heading) => heading.scrollIntoView());
    await page.screenshot({ path: join(SCREENSHOTS, "track-record-chart-1280.png") });
    await sectionShot(page, "#record-heading", "track-record-table-1280");

    await phone.page.goto(`/app/pools/${pool.id}`);
    await phone.page.locator('[data-verify][data-result="valid"]').waitFor();
    expect(await overflow(phone.page)).to.be.at.most(0);
    expect(await phone.page.locator("figure.history .claims g[data-outcome]").count()).to.equal(marks.length);
    expect(await phone.page.locator("#record-heading ~ div table tbody tr").count()).to.equal(record.claims.length);
    await screenshot(phone.page, "track-record-390");
    await sectionShot(phone.page, "#history-heading", "track-record-chart-390");
    await sectionShot(phone.page, "#record-heading", "track-record-table-390");
  });

  it("sets the live record beside the backtest on the model page, in words and in the API's numbers", async function () {
    const accuracy = await demo.json<GetAccuracyReturnType>("/api/v1/accuracy");
    expect(accuracy.graded, "the demo graded claims").to.be.greaterThan(0);
    const { page } = desktop;
    await page.goto("/app/model");
    const words = (await page.locator("[data-live-summary]").textContent())!.replace(/\s+/g, " ");
    expect(words).to.include(
      `Of ${accuracy.graded} claims graded, ${accuracy.held} held, ${accuracy.failed} failed and ${accuracy.void}`,
    );
    expect(words).to.include(`Brier score is ${accuracy.brier!.toFixed(3)}`);
    const side = page.getByRole("table", { name: "The backtest and the live record side by side" });
    const graded = side.locator("tbody tr", { hasText: "Claims graded" });
    expect((await graded.locator('[data-label="Live record"]').textContent())!.trim()).to.equal(
      String(accuracy.graded),
    );
    const buckets = page.getByRole("table", { name: /Live calibration buckets/ }).locator("tbody tr");
    expect(await buckets.count()).to.equal(accuracy.buckets.length);
    expect(await page.locator("#live-reliability-caption").count()).to.equal(1);
    expect(await page.locator("figure.reliability").count(), "the backtest's diagram and the live one").to.equal(
      accuracy.buckets.length > 0 ? 2 : 1,
    );
    await screenshot(page, "model-live-1280");
    await sectionShot(page, "#live-heading", "model-live-section-1280");

    await phone.page.goto("/app/model");
    expect(await overflow(phone.page)).to.be.at.most(0);
    expect(await phone.page.locator("[data-live-summary]").count()).to.equal(1);
    await screenshot(phone.page, "model-live-390");
    await sectionShot(phone.page, "#live-heading", "model-live-section-390");
  });
});
