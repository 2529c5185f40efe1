import { expect } from "chai";
import { HorizonInputError } from "../../src/errors/horizon";
import {
  ISSUING_MODEL,
  MODEL_V1,
  computeHorizon,
  type ComputeHorizonParameters,
  type DailyDepth,
} from "../../src/model/horizon";

/** These cases check the rule's mechanics (windows, target, caps, reasons) on v1's plain share, worked by hand. */
const computeV1 = (parameters: ComputeHorizonParameters) => computeHorizon({ model: MODEL_V1, ...parameters });

const START = Date.UTC(2026, 0, 1);
/** `n` consecutive days of depth 100 from 2026-01-01, with overrides by index (undefined = day missing). */
function history(n: number, overrides: Record<number, number | undefined> = {}): DailyDepth[] {
  const out: DailyDepth[] = [];
  for (let i = 0; i < n; i++) {
    const value = i in overrides ? overrides[i] : 100;
    if (value === undefined) continue;
    out.push({ day: new Date(START + i * 86_400_000).toISOString().slice(0, 10), minDepthUsd: value });
  }
  return out;
}

describe("computeHorizon", () => {
  it("uses the issuing model unless told otherwise", () => {
    const daily = history(40);
    expect(computeHorizon({ daily, depthNow: 100 })).to.deep.equal(
      computeHorizon({ daily, depthNow: 100, model: ISSUING_MODEL }),
    );
    expect(computeHorizon({ daily, depthNow: 100 })).to.not.deep.equal(computeV1({ daily, depthNow: 100 }));
  });

  it("publishes 7 days at 1.00 for a steady pool with 20 days (13 seven-day windows; 6 fourteen-day windows are too few)", () => {
    const r = computeV1({ daily: history(20), depthNow: 100 });
    expect(r).to.include({ horizonDays: 7, confidence: 100 });
    expect(r.reason).to.equal(undefined);
    expect(r.candidates[0]).to.include({ horizonDays: 7, windows: 13, held: 13, shareHundredths: 100 });
    expect(r.candidates[1]).to.include({ horizonDays: 14, windows: 6, excludedBy: "too-few-windows" });
  });

  it("picks the longest horizon meeting the target and rounds its share down (60 days, dip on day 5)", () => {
    // Day 5 at 40 < 0.5 × 100 breaks every window that starts on days 0..4 and contains it.
    // 7d: 53 windows, 48 held → 90.56 % → 90; 14d: 46, 41 → 89.13 → 89; 30d: 30, 25 → 83.33 → 83; 60d: no window.
    const r = computeV1({ daily: history(60, { 5: 40 }), depthNow: 100 });
    expect(r.candidates.slice(0, 3).map((c) => [c.windows, c.held, c.shareHundredths])).to.deep.equal([
      [53, 48, 90],
      [46, 41, 89],
      [30, 25, 83],
    ]);
    expect(r).to.include({ horizonDays: 30, confidence: 83 });
  });

  it("accepts a share exactly at the target (12 of 15 windows is 0.80, compared exactly)", () => {
    // 22 days, dip on day 3: 7d windows start on days 0..14 (15), those on 0..2 fail → 12/15.
    const r = computeV1({ daily: history(22, { 3: 40 }), depthNow: 100 });
    expect(r.candidates[0]).to.include({ windows: 15, held: 12, shareHundredths: 80 });
    expect(r).to.include({ horizonDays: 7, confidence: 80 });
  });

  it("uses the start day's lowest depth as the reference, so a window starting at the dip holds", () => {
    // 20 days, day 10 at 40: windows starting 3..9 fail (7), the one starting on day 10 (threshold 20) holds → 6/13.
    const r = computeV1({ daily: history(20, { 10: 40 }), depthNow: 100 });
    expect(r.candidates[0]).to.include({ windows: 13, held: 6, shareHundredths: 46, excludedBy: "below-target" });
    expect(r.horizonDays).to.equal(null);
    expect(r.confidence).to.equal(null);
    expect(r.reason).to.match(
      /held in 6 of 13 past 7-day windows; confidence 46% \(daily-min-windows\/v1\), below the 80% target/,
    );
  });

  it("counts only complete windows: a missing day removes every window that spans it", () => {
    // 20 days without day 10: 7d windows can start on 0,1,2,11,12 → 5 < 7.
    const r = computeV1({ daily: history(20, { 10: undefined }), depthNow: 100 });
    expect(r.candidates[0].windows).to.equal(5);
    expect(r.horizonDays).to.equal(null);
    expect(r.reason).to.match(/^insufficient history: 19 days recorded, 5 complete 7-day windows/);
  });

  it("writes singular counts in the reason (1 day, 1 window)", () => {
    expect(computeV1({ daily: history(1), depthNow: 100 }).reason).to.match(
      /^insufficient history: 1 day recorded, 0 complete 7-day windows;/,
    );
    expect(computeV1({ daily: history(8), depthNow: 100 }).reason).to.match(
      /^insufficient history: 8 days recorded, 1 complete 7-day window;/,
    );
  });

  it("refuses with a reason when the history is too short", () => {
    const r = computeV1({ daily: history(10), depthNow: 100 });
    expect(r.horizonDays).to.equal(null);
    expect(r.reason).to.match(/^insufficient history/);
  });

  it("is independent of input order", () => {
    const daily = history(60, { 5: 40, 33: 10 });
    const shuffled = [...daily].reverse();
    expect(computeV1({ daily: shuffled, depthNow: 1 })).to.deep.equal(computeV1({ daily, depthNow: 1 }));
  });

  describe("campaign ends", () => {
    const now = Date.UTC(2026, 2, 1) / 1000;
    it("caps the horizon at the whole days left before the earliest future campaign end", () => {
      const r = computeV1({
        daily: history(60, { 5: 40 }),
        depthNow: 100,
        campaignEnds: [now - 86_400, now + 20.5 * 86_400, now + 90 * 86_400],
        now,
      });
      expect(r).to.include({ horizonDays: 14, confidence: 89 });
      expect(r.reason).to.equal("shortened: a known incentive campaign ends in 20 days");
      expect(r.candidates[2].excludedBy).to.equal("campaign-end");
    });
    it("publishes nothing when the campaign ends before the shortest qualifying horizon", () => {
      const r = computeV1({ daily: history(60), depthNow: 100, campaignEnds: [now + 3 * 86_400], now });
      expect(r.horizonDays).to.equal(null);
      expect(r.reason).to.match(/campaign ends in 3 days/);
    });
    it("ignores campaigns that already ended", () => {
      const r = computeV1({ daily: history(20), depthNow: 100, campaignEnds: [now - 1], now });
      expect(r).to.include({ horizonDays: 7, confidence: 100 });
    });
  });

  describe("validations", () => {
    it("gives no horizon without a positive current depth", () => {
      expect(computeV1({ daily: history(30), depthNow: 0 })).to.include({ horizonDays: null, confidence: null });
    });
    for (const [name, params] of [
      ["floor above 1", { floor: 1.5 }],
      ["target 0", { target: 0 }],
      ["a fractional candidate", { candidates: [7.5] }],
      ["minWindows 0", { minWindows: 0 }],
      ["a malformed day", { daily: [{ day: "2026-02-30", minDepthUsd: 1 }] }],
      ["a repeated day", { daily: [...history(1), ...history(1)] }],
      ["a negative depth", { daily: [{ day: "2026-01-01", minDepthUsd: -1 }] }],
      ["campaignEnds without now", { campaignEnds: [1] }],
    ] as const) {
      it(`throws HorizonInputError for ${name}`, () => {
        expect(() => computeV1({ daily: history(20), depthNow: 100, ...params })).to.throw(HorizonInputError);
      });
    }
  });
});
