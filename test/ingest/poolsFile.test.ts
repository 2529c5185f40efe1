import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PoolsFileError } from "../../src/errors/config";
import { loadPoolsFile } from "../../src/ingest/poolsFile";

const PAIR = "0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc";
const ATOKEN = "0x724dc807b04555b71ed48a6896b6F41593b8C637";

describe("loadPoolsFile", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "poolsfile-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function load(content: string) {
    const path = join(dir, "pools.json");
    writeFileSync(path, content);
    return loadPoolsFile({ path });
  }
  async function failure(content: string): Promise<PoolsFileError> {
    try {
      await load(content);
    } catch (error) {
      expect(error).to.be.instanceOf(PoolsFileError);
      return error as PoolsFileError;
    }
    throw new Error("expected PoolsFileError");
  }

  it("reads the documented format and lower-cases addresses", async () => {
    const pools = await load(
      JSON.stringify({
        pools: [
          {
            chainId: 1,
            address: PAIR,
            kind: "amm",
            symbol: "USDC-WETH",
            protocol: "uniswap-v2",
            defillamaId: "a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601",
            merklId: "8830423186428491294",
          },
          {
            chainId: 42161,
            address: ATOKEN,
            kind: "lending",
            symbol: "USDC",
            protocol: "aave-v3",
            lendingPool: "0x794a61358D6845594F94dc1DB02A252b5b4814aD",
            underlying: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
          },
        ],
      }),
    );
    expect(pools).to.have.length(2);
    expect(pools[0]).to.deep.equal({
      chainId: 1,
      address: PAIR.toLowerCase(),
      kind: "amm",
      symbol: "USDC-WETH",
      protocol: "uniswap-v2",
      defillamaId: "a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601",
      merklId: "8830423186428491294",
    });
    expect(pools[1].lendingPool).to.equal("0x794a61358d6845594f94dc1db02a252b5b4814ad");
  });

  it("accepts a bare array", async () => {
    expect(
      await load(JSON.stringify([{ chainId: 8453, address: PAIR, kind: "amm", symbol: "A-B", protocol: "x" }])),
    ).to.have.length(1);
  });

  it("rejects a missing file, bad JSON, bad fields, unknown fields and duplicates, naming the issue", async () => {
    let missing: unknown;
    try {
      await loadPoolsFile({ path: join(dir, "absent.json") });
    } catch (error) {
      missing = error;
    }
    expect(missing).to.be.instanceOf(PoolsFileError);
    expect((await failure("{")).issues[0]).to.match(/^not JSON/);
    const bad = await failure(
      JSON.stringify({ pools: [{ chainId: 1, address: "0x1234", kind: "amm", symbol: "A", protocol: "p" }] }),
    );
    expect(bad.issues.join("\n")).to.match(/pools\.0\.address: must be 0x followed by 40 hex digits/);
    expect(bad.code).to.equal("POOLS_FILE_INVALID");
    const unknown = await failure(
      JSON.stringify([{ chainId: 1, address: PAIR, kind: "amm", symbol: "A", protocol: "p", tvl: 1 }]),
    );
    expect(unknown.issues.join("\n")).to.match(/Unrecognized key/);
    const kind = await failure(
      JSON.stringify([{ chainId: 1, address: PAIR, kind: "vault", symbol: "A", protocol: "p" }]),
    );
    expect(kind.issues.join("\n")).to.match(/0\.kind/);
    const dup = await failure(
      JSON.stringify([
        { chainId: 1, address: PAIR, kind: "amm", symbol: "A", protocol: "p" },
        { chainId: 1, address: PAIR.toLowerCase(), kind: "amm", symbol: "A", protocol: "p" },
      ]),
    );
    expect(dup.issues.join("\n")).to.match(/duplicate pool 1:0xb4e16d/);
  });

  it("treats the same address on two chains as two pools", async () => {
    const pools = await load(
      JSON.stringify([
        { chainId: 1, address: PAIR, kind: "amm", symbol: "A", protocol: "p" },
        { chainId: 8453, address: PAIR, kind: "amm", symbol: "A", protocol: "p" },
      ]),
    );
    expect(pools.map((p) => p.chainId)).to.deep.equal([1, 8453]);
  });
});
