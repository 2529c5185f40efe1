import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "chai";
import { loadConfig } from "../../src/config/loadConfig";
import { parseApiKeys } from "../../src/config/parseApiKeys";
import { ConfigError } from "../../src/errors/config";

const ROOT = resolve(__dirname, "../..");
const A = "A".repeat(32);
const B = "b0123456789-._~+/".padEnd(40, "x") + "==";

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("API_KEYS", function () {
  describe("parseApiKeys", function () {
    it("reads none when unset or blank", function () {
      expect(parseApiKeys({ value: undefined })).to.deep.equal([]);
      expect(parseApiKeys({ value: "  " })).to.deep.equal([]);
    });

    it("splits on commas, trims each key, keeps the order and counts a repeated key once", function () {
      expect(parseApiKeys({ value: ` ${A} ,${B},${A}` })).to.deep.equal([A, B]);
    });

    it("accepts exactly 32 characters and refuses 31, naming the position and never the key", function () {
      expect(parseApiKeys({ value: "k".repeat(32) })).to.deep.equal(["k".repeat(32)]);
      const short = "s".repeat(31);
      const error = thrown(() => parseApiKeys({ value: `${A},${short}` }));
      expect(error.variable).to.equal("API_KEYS");
      expect(error.shortMessage).to.match(/^API_KEYS: key 2 of 2 is 31 characters; each key must be at least 32/);
      expect(error.message).to.not.include(short);
      expect(error.message).to.not.include(A);
    });

    for (const [title, value, pattern] of [
      ["an empty entry", `${A},,${B}`, /key 2 of 3 is empty/],
      ["a trailing comma", `${A},`, /key 2 of 2 is empty/],
      ["a key longer than 512", "l".repeat(513), /longer than 512/],
      ["a character a Bearer token cannot carry", `${A}"`, /a character a Bearer token cannot carry/],
      ["a space inside a key", `${"x".repeat(20)} ${"y".repeat(20)}`, /a character a Bearer token cannot carry/],
    ] as const) {
      it(`refuses ${title}`, function () {
        const error = thrown(() => parseApiKeys({ value }));
        expect(error.shortMessage).to.match(/^API_KEYS: /);
        expect(error.shortMessage).to.match(pattern);
      });
    }
  });

  describe("loadConfig", function () {
    it("reads API_KEYS into config.apiKeys (none by default)", function () {
      expect(loadConfig({ env: {} }).apiKeys).to.deep.equal([]);
      expect(loadConfig({ env: { API_KEYS: `${A},${B}` } }).apiKeys).to.deep.equal([A, B]);
    });

    it("refuses a short key with one line naming API_KEYS", function () {
      const error = thrown(() => loadConfig({ env: { API_KEYS: "tooshort" } }));
      expect(error.shortMessage).to.equal(
        "API_KEYS: key 1 of 1 is 8 characters; each key must be at least 32 (e.g. openssl rand -hex 32)",
      );
      expect(error.shortMessage).to.not.include("tooshort");
    });
  });

  describe("npm start", function () {
    it("exits 78 with one line naming API_KEYS for a short key, never echoing it", function () {
      this.timeout(60_000);
      const dir = mkdtempSync(join(tmpdir(), "api-keys-"));
      try {
        const secret = "short-secret-value";
        const run = spawnSync(process.execPath, ["dist/main/start.js"], {
          cwd: ROOT,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir, API_KEYS: `${A},${secret}` },
          encoding: "utf8",
          timeout: 50_000,
        });
        expect(run.status, run.stderr).to.equal(78);
        expect(run.stderr).to.equal(
          "configuration error: API_KEYS: key 2 of 2 is 18 characters; each key must be at least 32 (e.g. openssl rand -hex 32)\n",
        );
        expect(run.stdout + run.stderr).to.not.include(secret);
        expect(run.stdout + run.stderr).to.not.include(A);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
