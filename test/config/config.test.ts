import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { privateKeyToAddress } from "viem/accounts";
import { loadAttesterKey } from "../../src/main/attesterKey";
import { loadConfig } from "../../src/config/loadConfig";
import { ConfigError } from "../../src/errors/config";
import { startScheduler } from "../../src/main/scheduler";
import { TEST_KEY } from "../helpers/service/app";

describe("service configuration", function () {
  describe("loadConfig", function () {
    it("applies the defaults of docs/service.md#configuration with an empty environment (demo mode)", function () {
      const config = loadConfig({ env: {}, cwd: "/srv/app" });
      expect(config).to.deep.include({
        port: 8080,
        host: "127.0.0.1",
        dataDir: "/srv/app/data",
        database: { file: "/srv/app/data/service.sqlite" },
        rpcUrls: {},
        attesterKey: { dataDir: "/srv/app/data" },
        registry: null,
        ingestIntervalS: 900,
        freshnessWindowS: 3600,
        attestationLifetimeS: 86400,
        rateLimit: { max: 600, verifyMax: 60, windowMs: 60_000 },
        connections: { requestTimeoutMs: 30_000, maxPerClient: 64 },
        mode: "demo",
      });
    });

    it("reads the connection limits; MAX_CONNECTIONS_PER_CLIENT=0 switches the cap off", function () {
      const limits = (env: Record<string, string>) => loadConfig({ env }).connections;
      expect(limits({ REQUEST_TIMEOUT_S: "5", MAX_CONNECTIONS_PER_CLIENT: "8" })).to.deep.equal({
        requestTimeoutMs: 5000,
        maxPerClient: 8,
      });
      expect(limits({ MAX_CONNECTIONS_PER_CLIENT: "0" }).maxPerClient).to.equal(false);
    });

    it("reads every variable of the configured mode", function () {
      const config = loadConfig({
        cwd: "/srv/app",
        env: {
          PORT: "9000",
          HOST: "0.0.0.0",
          DATA_DIR: "/var/lib/attest",
          DATABASE_URL: "postgres://u:p@db/attest",
          RPC_URL_1: "https://eth.example/rpc",
          RPC_URL_8453: "http://127.0.0.1:8545",
          POOLS_FILE: "pools.json",
          DEFILLAMA_YIELDS_URL: "https://yields.llama.fi",
          DEFILLAMA_API_URL: "https://api.llama.fi",
          DEFILLAMA_COINS_URL: "https://coins.llama.fi",
          MERKL_API_URL: "https://api.merkl.xyz",
          ATTESTER_PRIVATE_KEY: TEST_KEY,
          REGISTRY_ADDRESS: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
          REGISTRY_CHAIN_ID: "1",
          INGEST_INTERVAL_S: "60",
          FRESHNESS_WINDOW_S: "120",
          ATTESTATION_LIFETIME_S: "3600",
          RATE_LIMIT_MAX: "100",
          RATE_LIMIT_VERIFY_MAX: "500",
        },
      });
      expect(config).to.deep.include({
        port: 9000,
        host: "0.0.0.0",
        dataDir: "/var/lib/attest",
        database: { databaseUrl: "postgres://u:p@db/attest" },
        rpcUrls: { 1: "https://eth.example/rpc", 8453: "http://127.0.0.1:8545" },
        poolsFile: "/srv/app/pools.json",
        attesterKey: { privateKey: TEST_KEY },
        registry: { chainId: 1, address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" },
        ingestIntervalS: 60,
        freshnessWindowS: 120,
        attestationLifetimeS: 3600,
        // The verify limit never exceeds the general one.
        rateLimit: { max: 100, verifyMax: 100, windowMs: 60_000 },
        mode: "configured",
      });
      expect(config.feeds).to.deep.equal({
        defillamaYieldsUrl: "https://yields.llama.fi",
        defillamaApiUrl: "https://api.llama.fi",
        defillamaCoinsUrl: "https://coins.llama.fi",
        merklApiUrl: "https://api.merkl.xyz",
      });
    });

    it("switches the rate limit off with RATE_LIMIT_MAX=0 and treats empty values as unset", function () {
      const config = loadConfig({ env: { RATE_LIMIT_MAX: "0", PORT: "", HOST: "  " } });
      expect(config.rateLimit).to.equal(false);
      expect(config.port).to.equal(8080);
      expect(config.host).to.equal("127.0.0.1");
    });

    for (const [env, pattern] of [
      [{ PORT: "99999" }, /^PORT: must be <= 65535 \(got "99999"\)$/],
      [{ PORT: "eighty" }, /^PORT: must be integer/],
      [{ INGEST_INTERVAL_S: "0" }, /^INGEST_INTERVAL_S: must be >= 1/],
      [{ FRESHNESS_WINDOW_S: "1.5" }, /^FRESHNESS_WINDOW_S: must be integer/],
      [{ INGEST_INTERVAL_S: "1e3" }, /^INGEST_INTERVAL_S: must be integer \(got "1e3"\)$/],
      [{ PORT: "0x50" }, /^PORT: must be integer \(got "0x50"\)$/],
      [{ DEMO_DAYS: "16.0" }, /^DEMO_DAYS: must be integer/],
      [{ ATTESTATION_LIFETIME_S: "060" }, /^ATTESTATION_LIFETIME_S: must be integer/],
      [
        { REGISTRY_CHAIN_ID: "1e0", REGISTRY_ADDRESS: "0x5fbdb2315678afecb367f032d93f642f64180aa3" },
        /^REGISTRY_CHAIN_ID: must be integer/,
      ],
      [{ RATE_LIMIT_MAX: "-1" }, /^RATE_LIMIT_MAX: must be >= 0/],
      [{ REQUEST_TIMEOUT_S: "0" }, /^REQUEST_TIMEOUT_S: must be >= 1/],
      [{ REQUEST_TIMEOUT_S: "3601" }, /^REQUEST_TIMEOUT_S: must be <= 3600/],
      [{ MAX_CONNECTIONS_PER_CLIENT: "-1" }, /^MAX_CONNECTIONS_PER_CLIENT: must be >= 0/],
      [{ MAX_CONNECTIONS_PER_CLIENT: "1e3" }, /^MAX_CONNECTIONS_PER_CLIENT: must be integer/],
      [{ DATABASE_URL: "mysql://db" }, /^DATABASE_URL: has the wrong format/],
      [{ MERKL_API_URL: "ftp://x" }, /^MERKL_API_URL: has the wrong format/],
      [{ LOG_LEVEL: "loud" }, /^LOG_LEVEL: must be one of/],
      [{ ATTESTER_PRIVATE_KEY: "0x1234" }, /^ATTESTER_PRIVATE_KEY: has the wrong format/],
      [{ ATTESTER_PRIVATE_KEY: TEST_KEY, ATTESTER_KEY_FILE: "k" }, /^ATTESTER_KEY_FILE: .*not both/],
      [{ REGISTRY_ADDRESS: "0x5fbdb2315678afecb367f032d93f642f64180aa3" }, /^REGISTRY_CHAIN_ID: .*set both/],
      [{ REGISTRY_CHAIN_ID: "1" }, /^REGISTRY_ADDRESS: .*set both/],
      [{ RPC_URL_1: "https://x" }, /^POOLS_FILE: required/],
      [{ POOLS_FILE: "pools.json" }, /^RPC_URL_<chainId>: /],
      [{ RPC_URL_mainnet: "https://x" }, /^RPC_URL_mainnet: the suffix must be a decimal chain id/],
      [{ RPC_URL_1: "localhost:8545", POOLS_FILE: "p" }, /^RPC_URL_1: must be an http/],
    ] as const) {
      it(`rejects ${JSON.stringify(env).slice(0, 60)} with one line naming the variable`, function () {
        let error: unknown;
        try {
          loadConfig({ env });
        } catch (e) {
          error = e;
        }
        expect(error).to.be.instanceOf(ConfigError);
        const message = (error as ConfigError).shortMessage;
        expect(message).to.match(pattern);
        expect(message).to.not.include("\n");
      });
    }

    it("never echoes a private key in an error", function () {
      const bad = `0x${"ab".repeat(31)}zz`;
      try {
        loadConfig({ env: { ATTESTER_PRIVATE_KEY: bad } });
        expect.fail("should throw");
      } catch (error) {
        expect((error as Error).message).to.not.include("abab");
      }
    });
  });

  describe("loadAttesterKey", function () {
    let dir: string;
    beforeEach(function () {
      dir = mkdtempSync(join(tmpdir(), "service-key-"));
    });
    afterEach(function () {
      rmSync(dir, { recursive: true, force: true });
    });

    it("creates the dev key once with mode 0600 and reuses it", function () {
      const first = loadAttesterKey({ source: { dataDir: dir } });
      expect(first.origin).to.equal("dev key created");
      expect(statSync(join(dir, "attester.key")).mode & 0o777).to.equal(0o600);
      const second = loadAttesterKey({ source: { dataDir: dir } });
      expect(second.origin).to.equal("dev key reused");
      expect(second.privateKey).to.equal(first.privateKey);
      expect(second.address).to.equal(privateKeyToAddress(first.privateKey!));
      expect(readFileSync(join(dir, "attester.key"), "utf8").trim()).to.equal(first.privateKey);
    });

    it("reads ATTESTER_KEY_FILE and rejects a file that does not hold one key", function () {
      const file = join(dir, "k");
      writeFileSync(file, `${TEST_KEY}\n`, { mode: 0o600 });
      expect(loadAttesterKey({ source: { file } }).address).to.equal(privateKeyToAddress(TEST_KEY));
      writeFileSync(file, "not a key");
      expect(() => loadAttesterKey({ source: { file } })).to.throw(ConfigError, /0x followed by 64 hex digits/);
      expect(() => loadAttesterKey({ source: { file: join(dir, "missing") } })).to.throw(ConfigError, /cannot read/);
    });
  });

  describe("startScheduler", function () {
    it("never overlaps runs and waits for the run in progress on stop", async function () {
      let running = 0;
      let maxRunning = 0;
      let runs = 0;
      const scheduler = startScheduler({
        intervalMs: 1,
        run: async () => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          await new Promise((done) => setTimeout(done, 20));
          runs++;
          running--;
        },
        onError: () => undefined,
      });
      await new Promise((done) => setTimeout(done, 100));
      await scheduler.stop();
      expect(running).to.equal(0);
      expect(maxRunning).to.equal(1);
      const after = runs;
      await new Promise((done) => setTimeout(done, 50));
      expect(runs).to.equal(after);
      expect(runs).to.be.greaterThan(0);
    });

    it("reports a failing run and keeps the schedule", async function () {
      const errors: unknown[] = [];
      let calls = 0;
      const scheduler = startScheduler({
        intervalMs: 1,
        run: async () => {
          calls++;
          throw new Error("boom");
        },
        onError: (error) => errors.push(error),
      });
      await new Promise((done) => setTimeout(done, 50));
      await scheduler.stop();
      expect(calls).to.be.greaterThan(1);
      expect(errors.length).to.equal(calls);
    });
  });
});
