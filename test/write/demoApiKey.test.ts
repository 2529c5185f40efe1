import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { ConfigError } from "../../src/errors/config";
import { loadDemoApiKey } from "../../src/main/demoApiKey";
import { parseApiKeys } from "../../src/config/parseApiKeys";

describe("the demo API key (DATA_DIR/api.key)", function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "demo-key-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is created once (mode 0600, random, valid as an API_KEYS key) and reused on later starts", function () {
    const first = loadDemoApiKey({ dataDir: join(dir, "nested") });
    expect(first.origin).to.equal("created");
    expect(first.file).to.equal(join(dir, "nested", "api.key"));
    expect(statSync(first.file).mode & 0o777).to.equal(0o600);
    expect(readFileSync(first.file, "utf8")).to.equal(`${first.key}\n`);
    expect(parseApiKeys({ value: first.key })).to.deep.equal([first.key]);
    const again = loadDemoApiKey({ dataDir: join(dir, "nested") });
    expect(again).to.deep.equal({ ...first, origin: "reused" });
    const other = loadDemoApiKey({ dataDir: join(dir, "elsewhere") });
    expect(other.key).to.not.equal(first.key);
  });

  it("tightens a readable file to 0600 and refuses a file that holds no valid key", function () {
    const file = join(dir, "api.key");
    writeFileSync(file, `${"z".repeat(40)}\n`);
    chmodSync(file, 0o644);
    expect(loadDemoApiKey({ dataDir: dir }).key).to.equal("z".repeat(40));
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    writeFileSync(file, "short\n");
    let error: unknown;
    try {
      loadDemoApiKey({ dataDir: dir });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as ConfigError).shortMessage).to.match(/^DATA_DIR: .*api\.key must hold one API key/);
    expect((error as ConfigError).message).to.not.include("short\n");
  });
});
