import { expect } from "chai";
import { readDexVolumesStep } from "../../../src/ingest/steps/defillamaDexVolumes";
import { fixture, startRouteServer, type RouteServer } from "../../helpers/ingest/routeServer";

const fast = { timeoutMs: 2000, retries: 0, backoffMs: 5 };
/** 2025-11-22 12:00 UTC: every day of the recorded-shape fixture (2025-11-19 … 21) is complete. */
const READ_AT = Date.UTC(2025, 10, 22, 12) / 1000;

describe("feed steps on real response shapes", () => {
  let server: RouteServer;
  beforeEach(async () => {
    server = await startRouteServer({
      "/overview/dexs/ethereum": () => ({ body: fixture("defillama-dexs-ethereum.json") }),
    });
  });
  afterEach(() => server.close());

  describe("readDexVolumesStep", () => {
    it("keeps a chain whose overview holds a negative and a missing value, and counts the two dropped", async () => {
      const { report, data } = await readDexVolumesStep({
        chainIds: [1],
        apiUrl: server.url,
        feedOptions: fast,
        days: 30,
        now: () => READ_AT,
      });
      expect(report).to.deep.equal({ ok: true, rows: 7, dropped: 2 });
      expect(data.filter((r) => r.protocol === "Curve DEX").map((r) => r.day)).to.deep.equal(["2025-11-19"]);
    });

    it("names a tracked chain DefiLlama has no name for in the report, never skipping it in silence", async () => {
      const { report, data } = await readDexVolumesStep({
        chainIds: [1, 999],
        apiUrl: server.url,
        feedOptions: fast,
        days: 30,
        now: () => READ_AT,
      });
      expect(report).to.include({ ok: false, rows: 7 });
      expect(report!.error).to.equal("chain 999: no DefiLlama chain name known");
      expect(data).to.have.length(7);
    });
  });
});
