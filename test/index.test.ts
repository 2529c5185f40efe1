import { expect } from "chai";
import * as api from "../src/index";

describe("public API (src/index.ts)", () => {
  const functions = [
    // v1
    "createAttestationMessage",
    "formatConfidence",
    "signAttestation",
    "recoverAttestationSigner",
    "verifyAttestation",
    "verifyAttestations",
    "parseAttestationJson",
    "parseAttestationSignature",
    // pool ids
    "parsePoolId",
    "formatPoolId",
    // v2
    "getAttestationTypedData",
    "toTypedAttestation",
    "fromTypedAttestation",
    "hashTypedAttestation",
    "signTypedAttestation",
    "recoverTypedAttestationSigner",
    "verifyTypedAttestation",
    // recovery backend
    "getVerifyBackend",
    "setVerifyBackend",
    // registry actions
    "registerAttester",
    "addBond",
    "requestUnbond",
    "deregisterAttester",
    "withdrawBond",
    "revokeDigests",
    "getAttesterStatus",
    "isDigestRevoked",
  ];

  for (const name of functions) {
    it(`exports ${name} as a function`, () => {
      expect(api).to.have.property(name).that.is.a("function");
    });
  }

  it("exports the registry ABI with verify and hashAttestation", () => {
    const names = api.attestationRegistryAbi.filter((item) => item.type === "function").map((item) => item.name);
    expect(names).to.include.members(["verify", "hashAttestation", "register", "revoke", "revokeBatch", "minBond"]);
  });

  it("exports typed errors that extend BaseError", () => {
    const error = new api.NotRegisteredError({ attester: "0x0000000000000000000000000000000000000001" });
    expect(error).to.be.instanceOf(api.BaseError);
  });
});
