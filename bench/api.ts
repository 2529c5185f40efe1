/**
 * API throughput: `GET /api/v1/pool/{id}` (pre-signed attestations served from the store, cached per pass) against a
 * bare Fastify route that returns a constant JSON body of the same size, with the same server options (rate limit
 * off, logging off), on loopback, in the same run.
 *
 * Run with `npm run bench:api` (optional: BENCH_S seconds per measurement, default 4; BENCH_ROUNDS, default 3;
 * BENCH_CONNECTIONS, default 10). Each target is measured BENCH_ROUNDS times, interleaved, and the best round is kept
 * (the machine is shared). Load comes from an autocannon worker thread. Prints a Markdown table; no asserts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import Fastify, { type FastifyInstance } from "fastify";
import { keccak256, stringToHex, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { createAttestationMessage } from "../src/lib/createAttestationMessage";
import { signAttestation } from "../src/lib/signAttestation";
import { loadConfig } from "../src/config/loadConfig";
import { createServer, serverOptions } from "../src/service/server";
import { openStore } from "../src/storage/openStore";

const SECONDS = Number(process.env.BENCH_S ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const POOLS = 30;
// Bench-only key (Hardhat's first dev key). Never fund it.
const KEY: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: "127.0.0.1" });
}

async function measure(url: string, paths: string[]): Promise<{ rps: number; p99: number; errors: number }> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    workers: 1,
    requests: paths.map((path) => ({ method: "GET", path })),
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

  const config = loadConfig({ env: { RATE_LIMIT_MAX: "0", LOG_LEVEL: "silent" } });
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

  await app.close();
  await bare.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
