import { expect } from "chai";
import { loadConfig } from "../../src/config/loadConfig";
import { ConfigError } from "../../src/errors/config";

const PG = "postgres://u@127.0.0.1:5432/db";

describe("service configuration: running on several machines", function () {
  const load = (env: Record<string, string>) => loadConfig({ env });
  const fails = (env: Record<string, string>, variable: string, text: RegExp) => {
    let caught: unknown;
    try {
      load(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(ConfigError);
    expect((caught as ConfigError).shortMessage)
      .to.include(variable)
      .and.match(text);
  };

  it("defaults: one process does everything, no proxy, 10 s grace, migrations at start, a key in the process", function () {
    const config = load({});
    expect(config).to.deep.include({
      role: "all",
      trustProxy: false,
      shutdownGraceMs: 10_000,
      migrateOnStart: true,
      attesterSigner: null,
      retentionDays: 90,
    });
    expect(config.instanceId).to.match(/^[A-Za-z0-9._-]+-\d+-[0-9a-f]{6}$/);
    expect(load({}).instanceId).to.not.equal(config.instanceId);
  });

  it("SERVICE_ROLE api and worker need DATABASE_URL; an unknown role is named", function () {
    expect(load({ SERVICE_ROLE: "worker", DATABASE_URL: PG }).role).to.equal("worker");
    expect(load({ SERVICE_ROLE: "api", DATABASE_URL: PG }).role).to.equal("api");
    fails({ SERVICE_ROLE: "api" }, "DATABASE_URL", /SERVICE_ROLE=api/);
    fails({ SERVICE_ROLE: "leader", DATABASE_URL: PG }, "SERVICE_ROLE", /one of all, api, worker/);
  });

  it("INSTANCE_ID is kept as given, and a name with spaces is refused", function () {
    expect(load({ INSTANCE_ID: "worker-a" }).instanceId).to.equal("worker-a");
    fails({ INSTANCE_ID: "worker a" }, "INSTANCE_ID", /wrong format/);
  });

  it("TRUST_PROXY: a hop count or addresses and CIDRs; anything else is named", function () {
    expect(load({ TRUST_PROXY: "1" }).trustProxy).to.equal(1);
    expect(load({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1,::1" }).trustProxy).to.deep.equal([
      "10.0.0.0/8",
      "127.0.0.1",
      "::1",
    ]);
    fails({ TRUST_PROXY: "10.0.0.0/40" }, "TRUST_PROXY", /not an IP address or CIDR/);
    fails({ TRUST_PROXY: "999.1.1.1" }, "TRUST_PROXY", /not an IP address or CIDR/);
    fails({ TRUST_PROXY: "proxy.local" }, "TRUST_PROXY", /wrong format/);
  });

  it("MIGRATE_ON_START false or 0 turns the start-time migration off", function () {
    expect(load({ MIGRATE_ON_START: "false" }).migrateOnStart).to.equal(false);
    expect(load({ MIGRATE_ON_START: "0" }).migrateOnStart).to.equal(false);
    fails({ MIGRATE_ON_START: "no" }, "MIGRATE_ON_START", /one of/);
  });

  it("ATTESTER_SIGNER_URL goes with ATTESTER_ADDRESS and excludes a key in the process", function () {
    const address = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
    expect(
      load({ ATTESTER_SIGNER_URL: "http://127.0.0.1:8545", ATTESTER_ADDRESS: address }).attesterSigner,
    ).to.deep.equal({ url: "http://127.0.0.1:8545", address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" });
    fails({ ATTESTER_SIGNER_URL: "http://127.0.0.1:8545" }, "ATTESTER_ADDRESS", /go together/);
    fails({ ATTESTER_ADDRESS: address }, "ATTESTER_SIGNER_URL", /go together/);
    // An api process never signs: the address alone names the attester it vouches for.
    const api = load({ SERVICE_ROLE: "api", DATABASE_URL: PG, ATTESTER_ADDRESS: address });
    expect(api.attesterAddress).to.equal("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(api.attesterSigner).to.equal(null);
    fails(
      { ATTESTER_SIGNER_URL: "http://127.0.0.1:8545", ATTESTER_ADDRESS: address, ATTESTER_KEY_FILE: "k" },
      "ATTESTER_SIGNER_URL",
      /not both/,
    );
  });

  it("LOG_CONFIRMATIONS and PRICE_MIN_CONFIDENCE: defaults 12 and 0.9, ranges checked", function () {
    expect(load({})).to.deep.include({ logConfirmations: 12, priceMinConfidence: 0.9 });
    expect(load({ LOG_CONFIRMATIONS: "64", PRICE_MIN_CONFIDENCE: "0.5" })).to.deep.include({
      logConfirmations: 64,
      priceMinConfidence: 0.5,
    });
    fails({ PRICE_MIN_CONFIDENCE: "1.5" }, "PRICE_MIN_CONFIDENCE", /1/);
    fails({ LOG_CONFIRMATIONS: "-1" }, "LOG_CONFIRMATIONS", /0/);
  });

  it("LOG_RANGE_BLOCKS: default 2000, at least 1", function () {
    expect(load({})).to.deep.include({ logRangeBlocks: 2000 });
    expect(load({ LOG_RANGE_BLOCKS: "500" })).to.deep.include({ logRangeBlocks: 500 });
    fails({ LOG_RANGE_BLOCKS: "0" }, "LOG_RANGE_BLOCKS", /1/);
    fails({ LOG_RANGE_BLOCKS: "1.5" }, "LOG_RANGE_BLOCKS", /integer/);
  });

  it("FEED_MAX_BYTES: default 64 MiB, ranges checked", function () {
    expect(load({})).to.deep.include({ feedMaxBytes: 67_108_864 });
    expect(load({ FEED_MAX_BYTES: "1048576" })).to.deep.include({ feedMaxBytes: 1_048_576 });
    fails({ FEED_MAX_BYTES: "10" }, "FEED_MAX_BYTES", /1024/);
  });
});
