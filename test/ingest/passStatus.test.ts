import { expect } from "chai";
import { passStatus } from "../../src/ingest/passStatus";

const ok = { ok: true, rows: 2 };
const failed = { ok: false, error: "down", rows: 0 };
const partly = { ok: false, error: "1 pool(s) failed", rows: 1 };

describe("passStatus", () => {
  it("is ok when every source and step is ok, or when nothing ran", () => {
    expect(passStatus({ "chain:1": ok, merkl: ok, issue: { ok: true, rows: 0 } })).to.equal("ok");
    expect(passStatus({})).to.equal("ok");
  });

  it("is failed when every data source failed without rows, whatever issuance did", () => {
    expect(passStatus({ "chain:1": failed, merkl: failed })).to.equal("failed");
    expect(passStatus({ "chain:1": failed, issue: { ok: true, rows: 0 } })).to.equal("failed");
    expect(passStatus({ "chain:1": failed, issue: failed })).to.equal("failed");
  });

  it("is partial when some source failed but another delivered, or a source delivered part", () => {
    expect(passStatus({ "chain:1": failed, merkl: ok })).to.equal("partial");
    expect(passStatus({ "chain:1": partly })).to.equal("partial");
  });

  it("is partial when only issuance failed, or issuance failed with no data source at all", () => {
    expect(passStatus({ "chain:1": ok, issue: failed })).to.equal("partial");
    expect(passStatus({ issue: failed })).to.equal("partial");
  });
});
