import { expect } from "chai";
import type { Page } from "playwright-core";
import type { GetPoolHistoryReturnType } from "../../src/read/getPoolHistory";
import { yearSpan } from "../../src/web/charts/scale";
import { ISSUER_RULE } from "../../src/attest/refreshModelEvaluation";
import { evaluateModel } from "../../src/model/evaluateModel";
import { HORIZON_MODELS } from "../../src/model/horizon";
import { saveModelEvaluation } from "../../src/storage/modelEvaluations";
import { IDS } from "../helpers/read/seedMarket";
import { screenshot, signedInDesktopAndPhone, useDappInChromium, type Tab, sectionShot } from "../helpers/web/browser";
import { WALLET } from "../helpers/web/webApp";

/** How far the document scrolls sideways: scrollWidth − clientWidth (0 when it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Each chart's figure on the page: how far it scrolls inside itself, and where its SVG's right edge is. */
const charts = (page: Page) =>
  page.locator("figure.chart").evaluateAll((figures) =>
    figures.map((figure) => ({
      caption: (figure.querySelector("figcaption")?.textContent ?? "").trim().slice(0, 60),
      scrolls: figure.scrollWidth - figure.clientWidth,
      right: figure.querySelector("svg")!.getBoundingClientRect().right,
      viewport: document.documentElement.clientWidth,
    })),
  );

/**
 * The dapp's third step (issue 33) in Debian's Chromium on the web fixture, at 1280 and 390 px: a phone user answers
 * from the page itself what a pool's horizon is and why, whether its claims held, and what the confidence promises.
 */
describe("the dapp's third step in a real browser (Chromium), at 1280 and 390 px", function () {
  this.timeout(180_000);
  const web = useDappInChromium({ ALERTS_ALLOW_PRIVATE_TARGETS: "1" });
  let desktop: Tab;
  let phone: Tab;

  before(async function () {
    ({ desktop, phone } = await signedInDesktopAndPhone(web, WALLET));
  });

  it("fits the history chart to a 390 px phone with its latest day in view, and every time-series chart without sideways scroll", async function () {
    const history = (await (
      await fetch(`${web.base}/api/v1/pool/${IDS.e}/history`)
    ).json()) as GetPoolHistoryReturnType;
    const last = history.days[history.days.length - 1];
    for (const tab of [desktop, phone]) {
      const { page } = tab;
      await page.goto(`/app/pools/${IDS.e}`);
      await page.locator('[data-verify][data-result="valid"]').waitFor();
      expect(await overflow(page), "the page does not scroll sideways").to.be.at.most(0);
      const width = await page.evaluate(() => document.documentElement.clientWidth);
      // The latest day: its point and its label (the last one, with the axis's titles) are inside the viewport.
      const day = page.locator("figure.history .days > *").last();
      expect(await day.locator("title").textContent()).to.match(new RegExp(`^\\s*${last.date}`));
      const point = (await day.boundingBox())!;
      expect(point.x + point.width, "the latest day's point is in view").to.be.at.most(width);
      const label = page.locator("figure.history text.xlabel").last();
      expect(await label.isVisible()).to.equal(true);
      expect(await label.textContent()).to.include(last.date.slice(5));
      const box = (await label.boundingBox())!;
      expect(box.x + box.width, "the latest day's label is in view").to.be.at.most(width);
      // The year is on the dates, and the axes have titles.
      expect(await page.locator("figure.history text.xlabel").first().textContent()).to.match(/^\d{4}-\d{2}-\d{2}$/);
      expect(await page.locator("figure.history text.axis-title").allTextContents()).to.deep.equal([
        "Lowest depth of the day (USD)",
        `UTC day, ${yearSpan(history.days[0].date, last.date)}`,
      ]);
      for (const path of [`/app/pools/${IDS.e}`, "/app/volume", "/app/liquidity-map"]) {
        await page.goto(path);
        expect(await overflow(page), path).to.be.at.most(0);
        for (const chart of await charts(page)) {
          expect(chart.scrolls, `${path}: ${chart.caption} scrolls inside its figure`).to.be.at.most(0);
          expect(chart.right, `${path}: ${chart.caption} ends in view`).to.be.at.most(chart.viewport);
        }
      }
    }
    await phone.page.goto(`/app/pools/${IDS.e}`);
    await sectionShot(phone.page, "#history-heading", "third-history-390");
    await phone.page.goto("/app/volume");
    await sectionShot(phone.page, "#series-heading", "third-volume-390");
    await desktop.page.goto(`/app/pools/${IDS.e}`);
    await sectionShot(desktop.page, "#history-heading", "third-history-1280");
  });

  it("copies a new API key and a webhook secret with a Copy button that stays on a 390 px screen", async function () {
    for (const tab of [phone, desktop]) {
      const { page, context } = tab;
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: web.base });
      const width = await page.evaluate(() => document.documentElement.clientWidth);
      await page.goto("/app/keys");
      await page.getByRole("button", { name: "Create key" }).click();
      const key = page.locator("[data-new-key-value]");
      await key.waitFor({ state: "visible" });
      const copyKey = page.locator('[data-new-key] button[data-copy="new-key"]');
      expect(await copyKey.textContent()).to.equal("Copy");
      const button = (await copyKey.boundingBox())!;
      expect(button.x + button.width, "the Copy button is in view").to.be.at.most(width);
      expect(await overflow(page), "the keys page does not scroll sideways").to.be.at.most(0);
      await copyKey.click();
      await page.locator('[data-copy-status="new-key"]', { hasText: "Copied to the clipboard." }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(await key.inputValue());
      if (tab === phone) await sectionShot(page, "[data-new-key]", "third-keys-copy-390");

      await page.goto("/app/alerts");
      await page.getByLabel("Target URL").fill(`http://127.0.0.1:9/hook-${width}`);
      await page.getByRole("checkbox", { name: "pool.stale" }).check();
      await page.getByRole("button", { name: "Subscribe" }).click();
      const secret = page.locator("[data-new-secret-value]");
      await secret.waitFor({ state: "visible" });
      const copySecret = page.getByRole("button", { name: "Copy" });
      const box = (await copySecret.boundingBox())!;
      expect(box.x + box.width, "the Copy button is in view").to.be.at.most(width);
      expect(await overflow(page), "the alerts page does not scroll sideways").to.be.at.most(0);
      await copySecret.click();
      await page.locator('[data-copy-status="new-secret"]', { hasText: "Copied to the clipboard." }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(await secret.inputValue());
      expect(await secret.inputValue()).to.match(/^whsec_/);
      if (tab === phone) await sectionShot(page, "[data-new-secret]", "third-alerts-copy-390");
    }
  });

  it("answers on the page: the pools list's reasons, the pool's horizon and why, the model's plain answer first (screenshots)", async function () {
    // The model page with an evaluation of every version (as layout.browser.test.ts): synthetic pools of a year.
    const synthetic = Array.from({ length: 12 }, (_, n) => ({
      pool: `eip155:1:0x${(n + 1).toString(16).padStart(40, "0")}`,
      daily: Array.from({ length: 365 }, (_, i) => ({
        day: new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
        minDepthUsd: 1_000_000 * (1 + ((i * (n + 3)) % 7) / 50) * ((i * 7 + n * 13) % 97 === 0 ? 0.3 : 1),
      })),
    }));
    for (const model of HORIZON_MODELS) {
      const evaluation = evaluateModel(synthetic, { ...ISSUER_RULE, model }, "2025-12-31");
      await saveModelEvaluation(web.store.db, { model: model.id, computedAt: 1_767_225_600, evaluation });
    }
    for (const [tab, width] of [
      [desktop, 1280],
      [phone, 390],
    ] as const) {
      const { page } = tab;
      await page.goto("/app/pools?sort=horizon");
      expect(await overflow(page)).to.be.at.most(0);
      expect(
        await page.locator(".no-claim-reason").count(),
        "a reason for each pool without a claim",
      ).to.be.greaterThan(0);
      if (width === 390) {
        // On a phone's card, horizon and confidence come right under the pool's name.
        const card = page.locator("tbody tr").first();
        const name = (await card.locator("th").boundingBox())!;
        const horizon = (await card.locator('td[data-label="Horizon"]').boundingBox())!;
        const depth = (await card.locator('td[data-label="Depth"]').boundingBox())!;
        expect(horizon.y).to.be.greaterThan(name.y);
        expect(horizon.y).to.be.below(depth.y);
      }
      await screenshot(page, `third-pools-${width}`);
      await page.goto(`/app/pools/${IDS.e}`);
      await page.locator('[data-verify][data-result="valid"]').waitFor();
      expect(await page.locator(".why-horizon").textContent()).to.match(/^Why \d+ days: /);
      await screenshot(page, `third-pool-${width}`);
      await sectionShot(page, "#claim-heading", `third-pool-claim-${width}`);
      await page.goto("/app/model");
      expect(await overflow(page)).to.be.at.most(0);
      const answer = (await page
        .getByRole("heading", { name: "What a confidence promises, and how it did" })
        .boundingBox())!;
      const score = (await page.getByRole("heading", { name: "Backtest score" }).boundingBox())!;
      expect(answer.y, "the plain answer comes before the Brier score").to.be.below(score.y);
      expect(await page.locator("[data-plain-answer] li").first().textContent()).to.match(
        /^Claims made at \d+–\d+ % held [\d.]+ % of the time/,
      );
      await screenshot(page, `third-model-${width}`);
      await sectionShot(page, "#answer-heading", `third-model-answer-${width}`);
    }
  });
});
