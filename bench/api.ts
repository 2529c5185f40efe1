/**
 * API throughput: `GET /api/v1/pool/{id}` (pre-signed attestations served from the store, cached per pass) against a
 * bare Fastify route that returns a constant JSON body of the same size, with the same server options (rate limit
 * off, logging off), on loopback, in the same run.
 *
 * Then `POST /api/v1/verify` (the strict parser, the library's verification against the service's attester) beside a
 * bare Fastify POST route that takes the same JSON bodies and answers a constant body as large as the verify response:
 * once with the pure-JS recovery backend forced (`setVerifyBackend({backend: "js"})`, how the route ran before the
 * libsecp256k1 backend) and once with the native one (the default), interleaved, best of BENCH_ROUNDS.
 *
 * Then the market reads (volume, liquidity map, compare, roadmap, launch, activity) over a SQLite store seeded at
 * scale (1,000 pools × 365 days of daily lows and Swap-log volume, 100,000 activity events): each with the response
 * cache on, with it off (`API_CACHE_TTL_MS=0`), and off again over 100 pools, so the table shows the cached rate
 * next to the bare route, the uncached cost, and how that cost grows from 100 to 1,000 pools.
 *
 * Run with `npm run bench:api` (optional: BENCH_S seconds per measurement, default 4; BENCH_ROUNDS, default 3;
 * BENCH_CONNECTIONS, default 10; BENCH_MARKET_S seconds per uncached market measurement, default 2; BENCH_CACHED_S
 * seconds per cached one and its bare routes, default 1.2; BENCH_MARKET_ROUNDS, default 2; BENCH_MARKET=0 skips the
 * market part). Each attestation target is measured BENCH_ROUNDS times and each cached market read (with the bare
 * route and a bare route sending the same body) BENCH_MARKET_ROUNDS times, interleaved, and the best round is kept
 * (the machine is shared); uncached reads once. Load comes from an autocannon worker thread. Prints Markdown tables;
 * no asserts. About 2½–3 minutes in all.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import Fastify, { type FastifyInstance } from "fastify";
import { keccak256, stringToHex, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { createAttestationMessage } from "../src/lib/createAttestationMessage";
import { setVerifyBackend } from "../src/lib/setVerifyBackend";
import { signAttestation } from "../src/lib/signAttestation";
import { loadConfig } from "../src/config/loadConfig";
import { createServer, serverOptions } from "../src/service/server";
import { openStore, type Store } from "../src/storage/openStore";
import { seedMarketBench, type BenchPool } from "./seedMarket";

const SECONDS = Number(process.env.BENCH_S ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const MARKET_SECONDS = Number(process.env.BENCH_MARKET_S ?? 2);
const CACHED_SECONDS = Number(process.env.BENCH_CACHED_S ?? 1.2);
const MARKET_ROUNDS = Number(process.env.BENCH_MARKET_ROUNDS ?? 2);
const POOLS = 30;
// Bench-only key (Hardhat's first dev key). Never fund it.
const KEY: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: "127.0.0.1" });
}

type Measurement = { rps: number; p99: number; errors: number };

type Request = { method: "GET" | "POST"; path: string; body?: string; headers?: Record<string, string> };

async function measure(url: string, paths: (string | Request)[], seconds = SECONDS): Promise<Measurement> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    workers: 1,
    requests: paths.map((path) => (typeof path === "string" ? { method: "GET", path } : path)),
  });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "bench-api-"));
  const store = await openStore({ file: join(dir, "service.sqlite") });
  const now = Math.floor(Date.now() / 1000);
  const ids: string[] = [];
  for (let i = 0; i < POOLS; i++) {
    const address = `0x${keccak256(stringToHex(`bench pool ${i}`)).slice(26)}`;
    const chainId = [1, 42161, 8453][i % 3];
    ids.push(`eip155:${chainId}:${address}`);
    await store.db
      .insertInto("pools")
      .values({
        chain_id: chainId,
        address,
        kind: "amm",
        symbol: `TKN${i}-USDC`,
        protocol: "uniswap-v2",
        depth_usd: 1_000_000 + i,
        depth_observed_at: now - 60,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const fields = { chainId, confidence: 0.85, expiry: now + 86_400, horizon: 30, issuedAt: now, pool: address };
    const canonical = createAttestationMessage({ attestation: fields });
    await store.db
      .insertInto("attestations")
      .values({
        id: keccak256(stringToHex(canonical)),
        chain_id: chainId,
        address,
        issued_at: now,
        expiry: now + 86_400,
        horizon_days: 30,
        confidence_hundredths: 85,
        canonical,
        signature: await signAttestation({ attestation: fields, privateKey: KEY }),
        attester: privateKeyToAddress(KEY).toLowerCase(),
        floor: 0.5,
        depth_at_issuance_usd: 1_000_000,
        model: "daily-min-windows/v1",
        inputs_hash: keccak256(stringToHex(`inputs ${i}`)),
        outcome: "pending",
        eip712_json: null,
        created_at: now,
      })
      .execute();
  }

  const config = loadConfig({ env: { RATE_LIMIT_MAX: "0", MAX_CONNECTIONS_PER_CLIENT: "0", LOG_LEVEL: "silent" } });
  const app = await createServer({
    store,
    config,
    attester: { address: privateKeyToAddress(KEY), registry: null },
  });
  const appUrl = await listen(app);

  // The baseline: the same server options, one route, a constant body as large as an attestation response.
  const sample = JSON.parse((await app.inject({ method: "GET", url: `/api/v1/pool/${ids[0]}` })).body) as object;
  const bare = Fastify(serverOptions(config));
  bare.get("/constant", async () => sample);
  bare.get("/tiny", async () => ({ ok: true }));
  const bareUrl = await listen(bare);

  const zero = { rps: 0, p99: 0, errors: 0 };
  const best = { tiny: zero, bare: zero, pool: zero };
  const poolPaths = ids.map((id) => `/api/v1/pool/${id}`);
  for (let round = 0; round < ROUNDS; round++) {
    const t = await measure(bareUrl, ["/tiny"]);
    const b = await measure(bareUrl, ["/constant"]);
    const p = await measure(appUrl, poolPaths);
    if (t.rps > best.tiny.rps) best.tiny = t;
    if (b.rps > best.bare.rps) best.bare = b;
    if (p.rps > best.pool.rps) best.pool = p;
    const line = [t, b, p].map((m) => Math.round(m.rps)).join(" / ");
    process.stderr.write(`round ${round + 1}/${ROUNDS} (tiny / constant / pool): ${line} req/s\n`);
  }

  const ratio = best.pool.rps / best.bare.rps;
  console.log(
    `\nAPI throughput, ${CONNECTIONS} connections, ${SECONDS} s per round, best of ${ROUNDS} (Node ${process.version}, loopback)\n`,
  );
  console.log("| target | req/s | p99 latency (ms) | errors |");
  console.log("|---|---:|---:|---:|");
  console.log(
    `| bare Fastify route, {"ok":true} | ${Math.round(best.tiny.rps)} | ${best.tiny.p99} | ${best.tiny.errors} |`,
  );
  console.log(
    `| bare Fastify route, constant JSON (${JSON.stringify(sample).length} B) | ${Math.round(best.bare.rps)} | ${best.bare.p99} | ${best.bare.errors} |`,
  );
  console.log(
    `| GET /api/v1/pool/{id} (${POOLS} pools, rotating) | ${Math.round(best.pool.rps)} | ${best.pool.p99} | ${best.pool.errors} |`,
  );
  console.log(`\nratio pool / bare (same body size): ${(ratio * 100).toFixed(1)} % (target >= 70 %)`);
  console.log(`ratio pool / bare {"ok":true}: ${((best.pool.rps / best.tiny.rps) * 100).toFixed(1)} %`);

  await benchVerify({ app, appUrl, ids });
  await app.close();
  await store.close();
  if (process.env.BENCH_MARKET !== "0") await benchMarket({ bareUrl, dir });
  await bare.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * `POST /api/v1/verify` with the js backend forced, then native (interleaved rounds), beside a bare POST route that
 * parses the same bodies and answers a constant body of the verify response's size.
 */
async function benchVerify(b: { app: FastifyInstance; appUrl: string; ids: string[] }) {
  const bodies = await Promise.all(
    b.ids.map(async (id) => (await b.app.inject({ method: "GET", url: `/api/v1/pool/${id}` })).body),
  );
  const post = (path: string) =>
    bodies.map((body): Request => ({ method: "POST", path, body, headers: { "content-type": "application/json" } }));
  const check = await b.app.inject({
    method: "POST",
    url: "/api/v1/verify",
    payload: bodies[0],
    headers: { "content-type": "application/json" },
  });
  const verdict = JSON.parse(check.body) as { valid: boolean };
  if (check.statusCode !== 200 || !verdict.valid)
    throw new Error(`POST /api/v1/verify: ${check.statusCode} ${check.body}`);
  // Same server options as the app (rate limit off, logging off), one POST route.
  const barePost = Fastify(serverOptions(loadConfig({ env: { RATE_LIMIT_MAX: "0", LOG_LEVEL: "silent" } })));
  barePost.post("/verify-constant", async () => verdict);
  const barePostUrl = await listen(barePost);

  const zero = { rps: 0, p99: 0, errors: 0 };
  const best = { bare: zero, js: zero, native: zero };
  for (let round = 0; round < ROUNDS; round++) {
    const bareRound = await measure(barePostUrl, post("/verify-constant"));
    setVerifyBackend({ backend: "js" });
    const jsRound = await measure(b.appUrl, post("/api/v1/verify"));
    setVerifyBackend({ backend: "native" });
    const nativeRound = await measure(b.appUrl, post("/api/v1/verify"));
    if (bareRound.rps > best.bare.rps) best.bare = bareRound;
    if (jsRound.rps > best.js.rps) best.js = jsRound;
    if (nativeRound.rps > best.native.rps) best.native = nativeRound;
    const line = [bareRound, jsRound, nativeRound].map((m) => Math.round(m.rps)).join(" / ");
    process.stderr.write(
      `verify round ${round + 1}/${ROUNDS} (bare POST / verify js / verify native): ${line} req/s\n`,
    );
  }
  setVerifyBackend({ backend: "auto" });
  await barePost.close();

  console.log(
    `\nPOST /api/v1/verify, ${CONNECTIONS} connections, ${SECONDS} s per round, best of ${ROUNDS}, ${bodies.length} attestations rotating (${bodies[0].length} B each)\n`,
  );
  console.log("| target | req/s | p99 latency (ms) | errors | vs bare POST |");
  console.log("|---|---:|---:|---:|---:|");
  const row = (name: string, m: Measurement) =>
    console.log(
      `| ${name} | ${Math.round(m.rps)} | ${m.p99} | ${m.errors} | ${((m.rps / best.bare.rps) * 100).toFixed(1)} % |`,
    );
  row("bare Fastify POST route: same bodies in, constant verify-sized body out", best.bare);
  row("POST /api/v1/verify, before: js backend forced (@noble/curves)", best.js);
  row("POST /api/v1/verify, after: native backend (libsecp256k1, the default)", best.native);
  console.log(
    `\nratio verify / bare POST: before ${((best.js.rps / best.bare.rps) * 100).toFixed(1)} %, after ${((best.native.rps / best.bare.rps) * 100).toFixed(1)} % (${(best.native.rps / best.js.rps).toFixed(1)}x the requests per second)`,
  );
}

/** The market reads measured, each with the paths it rotates over. */
function marketTargets(pools: BenchPool[]): { name: string; paths: string[] }[] {
  const sets = Array.from({ length: 50 }, (_, i) =>
    [0, 1, 2, 3].map((k) => pools[(i * 7 + k * 13) % pools.length].id).join(","),
  );
  return [
    { name: "GET /api/v1/volume (30 days)", paths: ["/api/v1/volume"] },
    { name: "GET /api/v1/volume?days=365", paths: ["/api/v1/volume?days=365"] },
    { name: "GET /api/v1/liquidity-map", paths: ["/api/v1/liquidity-map"] },
    { name: "GET /api/v1/compare (4 pools, 50 sets)", paths: sets.map((set) => `/api/v1/compare?pools=${set}`) },
    { name: "GET /api/v1/roadmap", paths: ["/api/v1/roadmap"] },
    { name: "GET /api/v1/launch", paths: ["/api/v1/launch"] },
    { name: "GET /api/v1/activity (first page, 50)", paths: ["/api/v1/activity"] },
  ];
}

/** Opens a store in `dir` seeded with the market data set of `pools` pools. */
async function marketStore(dir: string, pools: number, now: number): Promise<{ store: Store; pools: BenchPool[] }> {
  const store = await openStore({ file: join(dir, `market-${pools}.sqlite`) });
  const started = Date.now();
  const seeded = await seedMarketBench(store, { pools, days: 365, events: 100_000, now });
  process.stderr.write(`seeded ${pools} pools × 365 days + 100,000 events in ${Date.now() - started} ms\n`);
  return { store, pools: seeded };
}

/** An app over `store` with the rate limit off and the given cache TTL. */
async function marketApp(store: Store, cacheTtlMs: number): Promise<{ app: FastifyInstance; url: string }> {
  const config = loadConfig({
    env: {
      RATE_LIMIT_MAX: "0",
      MAX_CONNECTIONS_PER_CLIENT: "0",
      LOG_LEVEL: "silent",
      API_CACHE_TTL_MS: String(cacheTtlMs),
    },
  });
  const app = await createServer({ store, config, attester: { address: privateKeyToAddress(KEY), registry: null } });
  return { app, url: await listen(app) };
}

/** Activity pages deep in the log: the cursors of 50 successive pages (exercises the cursor path uncached). */
async function activityCursorPaths(app: FastifyInstance): Promise<string[]> {
  const paths: string[] = [];
  let next: string | null = null;
  for (let i = 0; i < 50; i++) {
    const url: string = next === null ? "/api/v1/activity?limit=50" : `/api/v1/activity?limit=50&cursor=${next}`;
    paths.push(url);
    next = (JSON.parse((await app.inject({ method: "GET", url })).body) as { next: string | null }).next;
  }
  return paths;
}

/** Waits until the app has worked off the requests a measurement left in flight (SQLite reads are synchronous). */
async function drain(url: string): Promise<void> {
  await fetch(`${url}/api/v1/health`).then((res) => res.arrayBuffer());
}

async function benchMarket(baseline: { bareUrl: string; dir: string }) {
  const now = Math.floor(Date.now() / 1000);
  const large = await marketStore(baseline.dir, 1_000, now);
  const small = await marketStore(baseline.dir, 100, now);
  const targets = marketTargets(large.pools);
  const smallTargets = marketTargets(small.pools);
  const cached = await marketApp(large.store, 60_000);
  const uncached = await marketApp(large.store, 0);
  const uncachedSmall = await marketApp(small.store, 0);
  targets.push({ name: "GET /api/v1/activity (50 pages deep)", paths: await activityCursorPaths(uncached.app) });
  smallTargets.push({ name: "", paths: await activityCursorPaths(uncachedSmall.app) });
  // A bare route per read that sends that read's body as is (what a cache hit costs without the app around it).
  const bodies: string[] = [];
  const sameBody = Fastify(serverOptions(loadConfig({ env: { LOG_LEVEL: "silent" } })));
  sameBody.get<{ Params: { i: string } }>("/same/:i", async (request, reply) =>
    reply.type("application/json; charset=utf-8").send(bodies[Number(request.params.i)]),
  );
  const sameUrl = await listen(sameBody);
  const zero: Measurement = { rps: 0, p99: 0, errors: 0 };
  const rows: Measurement[][] = [];
  for (const [i, target] of targets.entries()) {
    const first = await cached.app.inject({ method: "GET", url: target.paths[0] });
    if (first.statusCode !== 200)
      throw new Error(`${target.paths[0]}: ${first.statusCode} ${first.body.slice(0, 200)}`);
    bodies.push(first.body);
    // Cached reads are fast and the machine is shared: best of MARKET_ROUNDS interleaved rounds, as above.
    // The bare route is measured again in every round, so a ratio compares figures taken under the same load.
    let [b, same, c] = [zero, zero, zero];
    for (let round = 0; round < MARKET_ROUNDS; round++) {
      const bareRound = await measure(baseline.bareUrl, ["/constant"], CACHED_SECONDS);
      const sameRound = await measure(sameUrl, [`/same/${i}`], CACHED_SECONDS);
      const cachedRound = await measure(cached.url, target.paths, CACHED_SECONDS);
      if (bareRound.rps > b.rps) b = bareRound;
      if (sameRound.rps > same.rps) same = sameRound;
      if (cachedRound.rps > c.rps) c = cachedRound;
    }
    const u = await measure(uncached.url, target.paths, MARKET_SECONDS);
    await drain(uncached.url);
    const s = await measure(uncachedSmall.url, smallTargets[i].paths, MARKET_SECONDS);
    await drain(uncachedSmall.url);
    rows.push([c, b, same, u, s]);
    const line = [c, b, same, u, s].map((m) => Math.round(m.rps)).join(" / ");
    process.stderr.write(`${target.name} (cached / bare / same body / uncached 1,000 / uncached 100): ${line} req/s\n`);
  }
  printMarketTable({ targets, sizes: bodies.map((body) => body.length), rows });
  for (const { app } of [cached, uncached, uncachedSmall]) await app.close();
  await sameBody.close();
  await large.store.close();
  await small.store.close();
}

function printMarketTable(r: { targets: { name: string }[]; sizes: number[]; rows: Measurement[][] }) {
  console.log(
    `\nMarket reads, SQLite, 1,000 pools × 365 days + 100,000 events (uncached also at 100 pools), ${CONNECTIONS} connections; cached and bare: best of ${MARKET_ROUNDS} interleaved rounds × ${CACHED_SECONDS} s, uncached: ${MARKET_SECONDS} s (Node ${process.version}, loopback)\n`,
  );
  console.log(
    "| read | body | cached req/s | p99 ms | bare route req/s | vs bare | bare, same body req/s | vs same body | uncached req/s, 1,000 pools | p99 ms | uncached req/s, 100 pools | p99 ms | cost 1,000 / 100 | errors |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  const pct = (a: Measurement, b: Measurement) => `${((a.rps / b.rps) * 100).toFixed(0)} %`;
  for (const [i, target] of r.targets.entries()) {
    const [c, b, same, u, s] = r.rows[i];
    const size = r.sizes[i] >= 10_000 ? `${Math.round(r.sizes[i] / 1024)} KiB` : `${r.sizes[i]} B`;
    const growth = `${(s.rps / Math.max(u.rps, 0.01)).toFixed(1)}×`;
    const cells = [target.name, size, Math.round(c.rps), c.p99, Math.round(b.rps), pct(c, b), Math.round(same.rps)];
    cells.push(
      pct(c, same),
      Math.round(u.rps),
      u.p99,
      Math.round(s.rps),
      s.p99,
      growth,
      c.errors + u.errors + s.errors,
    );
    console.log(`| ${cells.join(" | ")} |`);
  }
  console.log(
    '\nbare route: the constant attestation-sized JSON above, re-measured in each round. Target: every read >= 30 % of it with the response cache on ("vs bare"). "vs same body": over a bare route sending the same bytes. "cost 1,000 / 100": how many times longer an uncached request takes at 1,000 pools than at 100.',
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
