import { expect } from "chai";
import { loadConfig } from "../../src/config/loadConfig";
import { ConfigError } from "../../src/errors/config";
import { isLoopbackHttp } from "../../src/service/plugins/app/session";
import { NOW, openTempStore } from "../helpers/service/app";
import { Client, buildAuthApp, messageFor } from "../helpers/auth/siweApp";

describe("sign-in configuration", function () {
  it("defaults: 24 h sessions, chains 1, 8453 and 42161, 20 sign-in requests per window, 10 keys per wallet", function () {
    expect(loadConfig({ env: {} }).signIn).to.deep.equal({
      sessionTtlS: 86_400,
      chainIds: [1, 8453, 42161],
      rateLimitMax: 20,
      maxKeysPerWallet: 10,
    });
  });

  it("adds the chain of every RPC_URL_<chainId> to the default chains", function () {
    const config = loadConfig({
      env: { RPC_URL_10: "http://127.0.0.1:8545", RPC_URL_1: "http://127.0.0.1:8546", POOLS_FILE: "pools.json" },
    });
    expect(config.signIn.chainIds).to.deep.equal([1, 10, 8453, 42161]);
  });

  it("reads SIWE_CHAIN_IDS, SESSION_TTL_S and RATE_LIMIT_SIGN_IN_MAX (never above RATE_LIMIT_MAX)", function () {
    const config = loadConfig({
      env: {
        SIWE_CHAIN_IDS: " 137, 1,137 ",
        SESSION_TTL_S: "3600",
        RATE_LIMIT_SIGN_IN_MAX: "50",
        RATE_LIMIT_MAX: "30",
        MAX_KEYS_PER_WALLET: "3",
      },
    });
    expect(config.signIn).to.deep.equal({
      sessionTtlS: 3600,
      chainIds: [1, 137],
      rateLimitMax: 30,
      maxKeysPerWallet: 3,
    });
  });

  for (const [env, pattern] of [
    [{ SIWE_CHAIN_IDS: "1,0" }, /^SIWE_CHAIN_IDS: has the wrong format/],
    [{ SIWE_CHAIN_IDS: "1;10" }, /^SIWE_CHAIN_IDS: has the wrong format/],
    [{ SIWE_CHAIN_IDS: "9999999999999999" }, /^SIWE_CHAIN_IDS: each chain id must be at most 2\^53 - 1/],
    [{ SESSION_TTL_S: "59" }, /^SESSION_TTL_S: must be >= 60/],
    [{ SESSION_TTL_S: "2592001" }, /^SESSION_TTL_S: must be <= 2592000/],
    [{ RATE_LIMIT_SIGN_IN_MAX: "0" }, /^RATE_LIMIT_SIGN_IN_MAX: must be >= 1/],
  ] as const) {
    it(`refuses ${JSON.stringify(env)} with one line naming the variable`, function () {
      let error: unknown;
      try {
        loadConfig({ env });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as ConfigError).shortMessage).to.match(pattern);
    });
  }

  it("drops Secure from the cookie only for plain http on a loopback host", function () {
    for (const origin of ["http://127.0.0.1:8080", "http://127.1.2.3", "http://localhost:3000", "http://[::1]:8080"]) {
      expect(isLoopbackHttp(origin), origin).to.equal(true);
    }
    for (const origin of [
      "https://127.0.0.1",
      "http://0.0.0.0:8080",
      "http://192.168.1.5",
      "http://localhost.evil.example",
    ]) {
      expect(isLoopbackHttp(origin), origin).to.equal(false);
    }
  });

  it("gives sessions the SESSION_TTL_S lifetime and accepts only the SIWE_CHAIN_IDS chains", async function () {
    const { store, cleanup } = await openTempStore();
    const app = await buildAuthApp(store, { now: NOW }, { SESSION_TTL_S: "3600", SIWE_CHAIN_IDS: "137" });
    try {
      const client = new Client(app);
      const polygon = await client.signIn((nonce) => messageFor(nonce, { chainId: 137 }));
      expect(polygon.json()).to.include({ chainId: 137, expiresAt: NOW + 3600 });
      const mainnet = await client.signIn((nonce) => messageFor(nonce, { chainId: 1 }));
      expect(mainnet.statusCode).to.equal(401);
      expect(mainnet.json().error.code).to.equal("SIWE_CHAIN_REFUSED");
    } finally {
      await app.close();
      await cleanup();
    }
  });
});
