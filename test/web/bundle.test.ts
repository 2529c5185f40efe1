import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDappAssets } from "../../src/web/assets";
import { buildDappBundle } from "../../src/web/bundle";

describe("web/bundle: the dapp's client bundle (esbuild)", function () {
  this.timeout(120_000);
  let dir: string;
  before(function () {
    dir = mkdtempSync(join(tmpdir(), "dapp-bundle-"));
  });
  after(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it("builds one script and one stylesheet for the browser, with no Node-only module in them", async function () {
    const files = await buildDappBundle({ outDir: dir });
    expect([...files.keys()].sort()).to.deep.equal(["app.js", "styles.css"]);
    const script = Buffer.from(files.get("app.js")!).toString("utf8");
    // The library's verification and viem's EIP-4361 builder are in; no Node builtin and no native addon is.
    expect(script).to.include("wants you to sign in with your Ethereum account");
    expect(script).not.to.match(/require\(["'](node:|fs|crypto|path|secp256k1)/);
    expect(script).not.to.match(/\bhttps?:\/\/(?!eips\.ethereum\.org|www\.rfc-editor\.org)[a-z0-9.-]+\.[a-z]{2,}\//i);
    expect(files.get("app.js")!.byteLength).to.be.lessThan(200 * 1024);
  });

  it("loads the built files from the build folder, with content-hashed URLs", async function () {
    const assets = await loadDappAssets({ dir });
    expect(assets.source).to.equal("build");
    expect(assets.urls.script).to.match(/^\/app\/assets\/app\.[0-9a-f]{16}\.js$/);
    const file = assets.get(assets.urls.script.split("/").pop()!)!;
    expect(file.type).to.equal("text/javascript; charset=utf-8");
    expect(file.etag).to.match(/^"[0-9a-f]{16}"$/);
  });

  it("changes the URL when the bytes change (a page never gets another build's file)", async function () {
    const before = await loadDappAssets({ dir });
    writeFileSync(join(dir, "styles.css"), "body{color:red}");
    const after = await loadDappAssets({ dir });
    expect(after.urls.style).not.to.equal(before.urls.style);
    expect(after.urls.script).to.equal(before.urls.script);
  });

  it("builds the bundle in memory, and says so in one line, when the build folder has none", async function () {
    const empty = mkdtempSync(join(tmpdir(), "dapp-empty-"));
    const lines: string[] = [];
    try {
      const assets = await loadDappAssets({ dir: empty, onBuild: (line) => lines.push(line) });
      expect(assets.source).to.equal("memory");
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include("npm run build:dapp");
      expect(assets.get(assets.urls.style.split("/").pop()!)).not.to.equal(undefined);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
