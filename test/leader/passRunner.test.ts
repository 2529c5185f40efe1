import { expect } from "chai";
import { createPassRunner } from "../../src/main/ingestionPass";
import { loadConfig } from "../../src/config/loadConfig";
import type { IngestSource } from "../../src/ingest/source";
import { openTempStore } from "../helpers/service/app";

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
