import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { ISSUER_RULE } from "../../src/attest/refreshModelEvaluation";
import { main } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/types";
import { evaluateModel, type ModelEvaluation, type PublishedClaim } from "../../src/model/evaluateModel";
import { MODEL_V1, MODEL_V4, ISSUING_MODEL } from "../../src/model/horizon";
import { lowsSeries, seriesDay as day } from "../helpers/model/series";

const POOLS = [3, 8, 21, 40, 77].map((seed) => ({
  pool: `eip155:1:0x${String(seed).padStart(40, "0")}`,
  daily: lowsSeries(seed, 160, { gapEvery: seed % 2 === 0 ? 13 : 0, swing: 0.05, dipChance: 0.02 }),
}));
const LAST_DAY = POOLS.flatMap((p) => p.daily.map((d) => d.day))
  .sort()
  .at(-1)!;

/** The pools as NDJSON lines, days interleaved across pools (the input may come in any order). */
function ndjson(): string {
  const lines = POOLS.flatMap((p) => p.daily.map((d) => ({ pool: p.pool, date: d.day, lowUsd: d.minDepthUsd })));
  lines.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return (
    [...lines.map((l) => JSON.stringify(l)), JSON.stringify({ pool: POOLS[0].pool, campaignEnd: day(200) })].join(
      "\n",
    ) + "\n"
  );
}

const dir = mkdtempSync(join(tmpdir(), "attest-model-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function run(argv: string[], stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), readStdin: async () => stdin, env: {} };
  const code = await main(argv, io);
  return { code, out, err };
}

describe("attest model evaluate", function () {
  const input = ndjson();

  it("prints the same evaluation as evaluating the same pools in-process (the issuing model by default)", async function () {
    const { code, out, err } = await run(["model", "evaluate", "--input", file("lows.ndjson", input)]);
    expect(err).to.deep.equal([]);
    expect(code).to.equal(0);
    expect(out).to.have.length(1);
    const printed = JSON.parse(out[0]) as ModelEvaluation;
    // The pools sorted as the input's first appearance: the same order here.
    const expected = evaluateModel(POOLS, { ...ISSUER_RULE, model: ISSUING_MODEL }, LAST_DAY);
    expect(printed.scored).to.be.greaterThan(20);
    expect(printed).to.deep.equal(JSON.parse(JSON.stringify(expected)));
  });

  it("--model picks a version by its id or its last part; standard input by default", async function () {
    for (const [model, id] of [
      [MODEL_V4, "v4"],
      [MODEL_V1, MODEL_V1.id],
    ] as const) {
      const { code, out } = await run(["model", "evaluate", "--model", id], input);
      expect(code).to.equal(0);
      expect(JSON.parse(out[0])).to.deep.equal(
        JSON.parse(JSON.stringify(evaluateModel(POOLS, { ...ISSUER_RULE, model }, LAST_DAY))),
      );
    }
    const unknown = await run(["model", "evaluate", "--model", "v9"], input);
    expect(unknown.code).to.equal(64);
    expect(unknown.err[0]).to.contain("unknown model");
  });

  it("--claims writes every scored claim, from which the printed Brier score recomputes exactly", async function () {
    for (const model of ["v3", "v4"]) {
      const { code, out } = await run(["model", "evaluate", "--input", "-", "--model", model, "--claims"], input);
      expect(code).to.equal(0);
      const evaluation = JSON.parse(out[0]) as ModelEvaluation;
      const claims = out.slice(1).map((line) => JSON.parse(line) as PublishedClaim);
      expect(claims).to.have.length(evaluation.scored);
      expect(Object.keys(claims[0])).to.deep.equal(["pool", "asOf", "horizon", "confidence", "floorUsd", "outcome"]);
      expect(claims.filter((c) => c.outcome === "held")).to.have.length(evaluation.held);
      const brier =
        claims.reduce((sum, c) => sum + (c.confidence - (c.outcome === "held" ? 1 : 0)) ** 2, 0) / claims.length;
      expect(Math.round(brier * 1e6) / 1e6).to.equal(evaluation.brier);
    }
  });

  it("applies depthUsd (the claim's anchor) and campaignEnd (a horizon cap) lines as evaluateModel does", async function () {
    // Flat at 1,000 with a dip to 700 on day 60; the attestation of day 50 stated 1,500: its floor is 750 and it fails.
    // A campaign ending at 00:00 UTC of day 40 caps the claims made as of days 26 … 39 at 14 … 1 days.
    const daily = Array.from({ length: 90 }, (_, i) => ({ day: day(i), minDepthUsd: i === 60 ? 700 : 1000 }));
    const lines = [
      ...daily.map((d, i) =>
        JSON.stringify({ pool: "p", date: d.day, lowUsd: d.minDepthUsd, ...(i === 50 ? { depthUsd: 1500 } : {}) }),
      ),
      JSON.stringify({ pool: "p", campaignEnd: day(40) }),
    ];
    const { code, out } = await run(["model", "evaluate", "--claims"], lines.join("\n"));
    expect(code).to.equal(0);
    const evaluation = JSON.parse(out[0]) as ModelEvaluation;
    const claims = out.slice(1).map((line) => JSON.parse(line) as PublishedClaim);
    const pool = {
      pool: "p",
      daily,
      depths: [{ day: day(50), depthUsd: 1500 }],
      campaignEnds: [Date.parse(`${day(40)}T00:00:00Z`) / 1000],
    };
    expect(evaluation).to.deep.equal(JSON.parse(JSON.stringify(evaluateModel([pool], ISSUER_RULE, day(89)))));
    expect(claims.find((c) => c.asOf === day(50))).to.include({ floorUsd: 750, outcome: "failed" });
    const capped = claims.filter((c) => c.asOf >= day(26) && c.asOf < day(40));
    expect(capped.length).to.be.greaterThan(0);
    for (const c of capped)
      expect(c.horizon, c.asOf).to.be.at.most(40 - (Date.parse(c.asOf) - Date.parse(day(0))) / 864e5);
    // Without those lines, day 50's claim holds and the claims before day 40 reach further.
    const plain = evaluateModel([{ pool: "p", daily }], ISSUER_RULE, day(89));
    expect(plain.held).to.be.greaterThan(evaluation.held);
    expect(plain.byHorizon).to.not.deep.equal(evaluation.byHorizon);
  });

  it("accepts the same pool and date twice when both lines agree", async function () {
    const line = JSON.stringify({
      pool: POOLS[0].pool,
      date: POOLS[0].daily[0].day,
      lowUsd: POOLS[0].daily[0].minDepthUsd,
    });
    const { code } = await run(["model", "evaluate"], `${line}\n${input}`);
    expect(code).to.equal(0);
  });

  const good = JSON.stringify({ pool: "p", date: "2026-01-01", lowUsd: 100 });
  for (const [what, bad, fix] of [
    ["a line that is not JSON", "{pool: p}", "not JSON"],
    ["a bad date", JSON.stringify({ pool: "p", date: "2026-02-30", lowUsd: 1 }), '"date" must be a UTC day'],
    [
      "a negative low",
      JSON.stringify({ pool: "p", date: "2026-01-02", lowUsd: -5 }),
      '"lowUsd" must be a finite number ≥ 0',
    ],
    [
      "a duplicate pool and date with another value",
      JSON.stringify({ pool: "p", date: "2026-01-01", lowUsd: 99 }),
      "already on line 1",
    ],
    ["an unknown field", JSON.stringify({ pool: "p", date: "2026-01-02", low: 5 }), 'unknown field "low"'],
    ["a bad campaign end", JSON.stringify({ pool: "p", campaignEnd: "soon" }), '"campaignEnd" must be a UTC day'],
  ] as const) {
    it(`exits 64 on ${what}, naming the line on one line of standard error`, async function () {
      const { code, out, err } = await run(["model", "evaluate"], `${good}\n\n${bad}\n${good}\n`);
      expect(code).to.equal(64);
      expect(out).to.deep.equal([]);
      expect(err).to.have.length(1);
      expect(err[0]).to.contain("standard input: line 3: ").and.to.contain(fix);
    });
  }

  it("exits 64 on an input with no daily low, and on a missing subcommand", async function () {
    const empty = await run(["model", "evaluate"], "\n");
    expect(empty.code).to.equal(64);
    expect(empty.err).to.have.length(1);
    expect((await run(["model"])).code).to.equal(64);
    expect((await run(["model", "evaluate", "--input", join(dir, "missing.ndjson")])).code).to.equal(1);
  });
});
