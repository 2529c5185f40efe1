import { expect } from "chai";
import { createPassRunner, retentionDaysFor } from "../../src/ingest/passRunner";
import { loadConfig } from "../../src/config/loadConfig";
import type { IngestSource } from "../../src/ingest/source";
import { createLocalSigner } from "../../src/attest/signer";
import { NOW, POOL, seedSteadyPool } from "../helpers/attest/steadyPool";
import { TEST_KEY, openTempStore } from "../helpers/service/app";

describe("retentionDaysFor: RETENTION_DAYS lengthened to keep a source's history", function () {
  const now = 1_790_000_000;
  it("is RETENTION_DAYS without keepSince, or when the history is shorter", function () {
    expect(retentionDaysFor(90, undefined, now)).to.equal(90);
    expect(retentionDaysFor(90, now - 30 * 86_400, now)).to.equal(90);
  });
  it("covers the whole history when it is longer (the demo's 121 days are never pruned by its own first pass)", function () {
    expect(retentionDaysFor(90, now - 121 * 86_400, now)).to.equal(122);
    expect(retentionDaysFor(90, now - 121 * 86_400 - 5, now)).to.equal(123);
  });
});

describe("the pass runner: the model evaluation is written when it can have changed", function () {
  it("a steady live pass (nothing issued, the same complete day) writes no evaluation; the first pass of the process does", async function () {
    const temp = await openTempStore();
    try {
      const config = loadConfig({ env: { LOG_LEVEL: "silent" } });
      const source: IngestSource = {
        pools: [],
        chains: [],
        feeds: {},
        registry: null,
        localChains: [],
        stop: async () => undefined,
      };
      const lines: string[] = [];
      const runner = createPassRunner({
        config,
        key: { signer: null as never },
        store: temp.store,
        source,
        log: (line) => lines.push(line),
        checkpoint: () => undefined,
      });
      const written = async () =>
        temp.store.db.selectFrom("model_evaluations").select(["model", "computed_at"]).execute();
      await runner.live("first");
      const first = await written();
      expect(first.length, "the first live pass of the process writes every version").to.be.greaterThan(0);
      expect(lines.filter((line) => /model evaluation:/.test(line))).to.have.length(1);
      await temp.store.db.deleteFrom("model_evaluations").execute();
      await runner.live("second");
      expect(await written(), "a steady pass writes nothing of the evaluation").to.deep.equal([]);
      expect(lines.filter((line) => /model evaluation:/.test(line))).to.have.length(1);
    } finally {
      await temp.cleanup();
    }
  });
});

describe("the pass runner: a history pass issues only where the source issues along its history (the demo)", function () {
  for (const issuesAlongHistory of [undefined, false, true]) {
    it(`issuesAlongHistory ${String(issuesAlongHistory)}: ${issuesAlongHistory ? "issues, signed at the moment's time" : "ingests only, never a back-dated claim"}`, async function () {
      const temp = await openTempStore();
      try {
        await seedSteadyPool(temp.store.db, { now: NOW });
        const source: IngestSource = {
          pools: [POOL],
          chains: [],
          feeds: {},
          registry: null,
          localChains: [],
          stop: async () => undefined,
          ...(issuesAlongHistory === undefined ? {} : { issuesAlongHistory }),
        };
        const runner = createPassRunner({
          config: loadConfig({ env: { LOG_LEVEL: "silent" } }),
          key: { signer: createLocalSigner(TEST_KEY) },
          store: temp.store,
          source,
          log: () => undefined,
          checkpoint: () => undefined,
        });
        await runner.history({ label: "a moment", chains: [], time: NOW });
        const issued = await temp.store.db.selectFrom("attestations").select(["issued_at"]).execute();
        expect(issued.map((row) => Number(row.issued_at))).to.deep.equal(issuesAlongHistory ? [NOW] : []);
      } finally {
        await temp.cleanup();
      }
    });
  }
});
