import { expect } from "chai";
import type { FastifyInstance } from "fastify";
import { refreshModelEvaluation } from "../../../src/attest/refreshModelEvaluation";
import { HORIZON_MODEL_ID } from "../../../src/model/horizon";
import { getModelEvaluation } from "../../../src/read/getModelEvaluation";
import { saveModelEvaluation } from "../../../src/storage/modelEvaluations";
import { MODEL_CLAIMS_PAGE_SIZE } from "../../../src/read/getModelClaims";
import { surface as getModelClaimsSurface } from "../../../src/read/getModelClaims";
import { declaredResponseSchema } from "../../../src/service/declaredRoutes";
import type { Store } from "../../../src/storage/openStore";
import { recordDailyDepth } from "../../../src/storage/poolDaily";
import { expectSchema } from "../../helpers/read/marketApp";
import { DAY, NOW, buildTestApp, insertPool, openTempStore } from "../../helpers/service/app";

/** The route answers its declaration's shape. */
const ModelClaimsResponseSchema = declaredResponseSchema(getModelClaimsSurface);

const DAYS = 150;
const ADDRESSES = Array.from({ length: 14 }, (_, i) => `0x${String(i + 1).padStart(40, "0")}`);

/** A pool's lows: steady, with a 70 % withdrawal every `dipEvery` days that returns the day after. */
function lows(base: number, dipEvery: number): number[] {
  return Array.from({ length: DAYS }, (_, i) =>
    i % dipEvery === dipEvery - 1 ? base * 0.3 : base * (1 + ((i * 7) % 5) / 100),
  );
}

type Page = {
  model: string;
  computedAt: number | null;
  scored: number;
  claims: { pool: string; asOf: string; horizon: number; confidence: number; floorUsd: number; outcome: string }[];
  next: string | null;
};

describe("GET /api/v1/model/claims: every scored claim, paged (real SQLite)", function () {
  let store: Store;
  let cleanup: () => Promise<void>;

  before(async function () {
    ({ store, cleanup } = await openTempStore());
    for (const [n, address] of ADDRESSES.entries()) {
      await insertPool(store, { chain_id: 1, address, kind: "amm", symbol: `P${n}`, protocol: "uniswap-v2" });
      for (const [i, depthUsd] of lows(100_000 * (n + 1), 9 + 7 * n).entries()) {
        const observedAt = NOW - (DAYS - i) * DAY + 3600;
        await recordDailyDepth(store.db, { chainId: 1, address, depthUsd, observedAt, block: String(1000 + i) });
      }
    }
  });

  after(async function () {
    await cleanup?.();
  });

  /** A fresh app (route answers are cached briefly). */
  async function withApp<T>(run: (app: FastifyInstance) => Promise<T>): Promise<T> {
    const app = await buildTestApp(store);
    try {
      return await run(app);
    } finally {
      await app.close();
    }
  }

  it("answers no claims and computedAt null before the first issuing pass", async function () {
    await withApp(async (app) => {
      const res = await app.inject({ url: "/api/v1/model/claims" });
      expect(res.statusCode).to.equal(200);
      expect(res.json()).to.deep.equal({
        model: HORIZON_MODEL_ID,
        computedAt: null,
        scored: 0,
        claims: [],
        next: null,
      });
    });
  });

  it("pages every scored claim in a stable order; together they recompute the published Brier score exactly", async function () {
    const stored = await refreshModelEvaluation(store.db, { now: NOW });
    await withApp(async (app) => {
      const published = (await app.inject({ url: "/api/v1/model" })).json().evaluation;
      const pages: Page[] = [];
      let url: string | null = "/api/v1/model/claims";
      while (url !== null) {
        const res = await app.inject({ url });
        expect(res.statusCode).to.equal(200);
        const page = res.json() as Page;
        expectSchema(ModelClaimsResponseSchema, page);
        pages.push(page);
        url = page.next === null ? null : `/api/v1/model/claims?cursor=${encodeURIComponent(page.next)}`;
      }
      expect(pages.length, "more than one page").to.be.greaterThan(1);
      for (const page of pages.slice(0, -1)) expect(page.claims).to.have.length(MODEL_CLAIMS_PAGE_SIZE);
      const claims = pages.flatMap((page) => page.claims);
      expect(pages.every((page) => page.computedAt === NOW && page.scored === claims.length)).to.equal(true);
      expect(claims).to.have.length(published.scored).and.to.have.length(stored.scored);
      expect(claims.filter((c) => c.outcome === "held")).to.have.length(published.held);
      const brier = claims.reduce((sum, c) => sum + (c.confidence - (c.outcome === "held" ? 1 : 0)) ** 2, 0);
      expect(Math.round((brier / claims.length) * 1e6) / 1e6).to.equal(published.brier);
      const keys = claims.map((c) => `${c.pool} ${c.asOf} ${String(c.horizon).padStart(3, "0")}`);
      expect(keys).to.deep.equal([...keys].sort());
      expect(new Set(keys).size).to.equal(keys.length);
      // Every sample claim of /api/v1/model is one of them.
      const all = new Set(
        claims.map((c) => JSON.stringify([c.pool, c.asOf, c.horizon, c.confidence, c.floorUsd, c.outcome === "held"])),
      );
      for (const s of published.sample) {
        expect(all.has(JSON.stringify([s.pool, s.asOf, s.horizon, s.confidence, s.floorUsd, s.held]))).to.equal(true);
      }
    });
  });

  it("answers 400 INVALID_CURSOR with a JSON error body for a cursor it did not hand out, or one since recomputed", async function () {
    await refreshModelEvaluation(store.db, { now: NOW });
    const next = await withApp(
      async (app) => (await app.inject({ url: "/api/v1/model/claims" })).json().next as string,
    );
    const altered = Buffer.from(
      Buffer.from(next, "base64url")
        .toString("utf8")
        .replace(/\.(\d+)$/, ".7"),
    ).toString("base64url");
    for (const cursor of ["bogus", "", "m1.0.500", altered, "%%"]) {
      await withApp(async (app) => {
        const res = await app.inject({ url: `/api/v1/model/claims?cursor=${encodeURIComponent(cursor)}` });
        if (cursor === "") return;
        expect(res.statusCode, cursor).to.equal(400);
        expect(res.headers["content-type"]).to.match(/^application\/json/);
        expect(res.json().error.code, cursor).to.equal("INVALID_CURSOR");
      });
    }
    await refreshModelEvaluation(store.db, { now: NOW + DAY });
    await withApp(async (app) => {
      const res = await app.inject({ url: `/api/v1/model/claims?cursor=${next}` });
      expect(res.statusCode).to.equal(400);
      expect(res.json().error.code).to.equal("INVALID_CURSOR");
      expect(res.json().error.message).to.contain("recomputed");
    });
  });

  it("reads an evaluation stored in the older shape (buckets without effectiveN and interval90) as not computed", async function () {
    const stored = await refreshModelEvaluation(store.db, { now: NOW });
    const older = {
      ...stored,
      buckets: stored.buckets.map(({ effectiveN: _n, interval90: _i, ...bucket }) => bucket),
    };
    await saveModelEvaluation(store.db, { model: HORIZON_MODEL_ID, computedAt: NOW, evaluation: older });
    const read = await getModelEvaluation({ db: store.db });
    expect(read.evaluation).to.equal(null);
    expect(read.versions.filter((v) => v.evaluation !== null)).to.have.length(read.versions.length - 1);
    // Nor are claims served for it: they were not stored with it.
    await withApp(async (app) => {
      expect((await app.inject({ url: "/api/v1/model/claims" })).json()).to.include({ computedAt: null, scored: 0 });
    });
  });

  it("reads an evaluation stored without a void count (floors anchored on the day's low) as not computed", async function () {
    const stored = await refreshModelEvaluation(store.db, { now: NOW });
    expect(stored.void).to.be.a("number");
    const { void: _void, ...older } = stored;
    await saveModelEvaluation(store.db, { model: HORIZON_MODEL_ID, computedAt: NOW, evaluation: older });
    expect((await getModelEvaluation({ db: store.db })).evaluation).to.equal(null);
    await saveModelEvaluation(store.db, { model: HORIZON_MODEL_ID, computedAt: NOW, evaluation: stored });
    expect((await getModelEvaluation({ db: store.db })).evaluation).to.deep.equal(stored);
  });

  it("reads an evaluation stored without the Brier difference's interval as not computed, until the next pass", async function () {
    const stored = await refreshModelEvaluation(store.db, { now: NOW });
    expect(stored.brierDifference90).to.have.keys("low", "high");
    const { brierDifference90: _interval, ...older } = stored;
    await saveModelEvaluation(store.db, { model: HORIZON_MODEL_ID, computedAt: NOW, evaluation: older });
    expect((await getModelEvaluation({ db: store.db })).evaluation).to.equal(null);
    await saveModelEvaluation(store.db, { model: HORIZON_MODEL_ID, computedAt: NOW, evaluation: stored });
    expect((await getModelEvaluation({ db: store.db })).evaluation).to.deep.equal(stored);
  });
});
