import { expect } from "chai";
import vectors from "../vectors/attestation-v1.json";
import { InvalidVerifyBackendError } from "../../src/errors/verifyBackend";
import { getVerifyBackend } from "../../src/lib/getVerifyBackend";
import { setVerifyBackend } from "../../src/lib/setVerifyBackend";
import type { Attestation } from "../../src/lib/types";
import { verifyAttestation } from "../../src/lib/verifyAttestation";

const at = (seconds: number) => new Date(seconds * 1000);

describe("setVerifyBackend", () => {
  afterEach(() => setVerifyBackend({ backend: "auto" }));

  it("forces js or native, and returns what is now in use", () => {
    expect(setVerifyBackend({ backend: "js" })).to.deep.equal({ backend: "js", setting: "js", nativeError: null });
    expect(getVerifyBackend().backend).to.equal("js");
    expect(setVerifyBackend({ backend: "native" })).to.deep.equal({
      backend: "native",
      setting: "native",
      nativeError: null,
    });
    expect(getVerifyBackend().backend).to.equal("native");
    expect(setVerifyBackend({ backend: "auto" }).backend).to.equal("native");
  });

  it("verifies the conformance vectors the same way under each backend", () => {
    const run = () =>
      vectors.cases
        .filter((c) => c.expected.canonical !== null)
        .map((c) =>
          verifyAttestation({
            attestation: c.attestation as Attestation,
            address: c.expectedAttester,
            time: at(c.now),
          }),
        );
    setVerifyBackend({ backend: "js" });
    const js = run();
    setVerifyBackend({ backend: "native" });
    expect(run()).to.deep.equal(js);
    expect(js.filter((r) => r.valid)).to.have.length.greaterThan(5);
  });

  it("refuses anything but auto, native or js, and keeps the backend in use", () => {
    setVerifyBackend({ backend: "js" });
    for (const backend of ["wasm", "", "JS", undefined, 1])
      expect(() => setVerifyBackend({ backend: backend as "js" }))
        .to.throw(InvalidVerifyBackendError, /^backend must be one of auto, native, js/)
        .with.property("code", "VERIFY_BACKEND_INVALID");
    expect(getVerifyBackend()).to.deep.include({ backend: "js", setting: "js" });
  });
});
