import { expect } from "chai";
import { readFileSync } from "node:fs";
import path from "node:path";

import { attestationRegistryAbi } from "../../src/abi/attestationRegistryAbi";
import { abiFile, abiSourceArtifact, readArtifactAbi, renderAbiModule } from "../../scripts/generate-abi";

describe("attestationRegistryAbi", function () {
  it("equals the ABI of the compiled AttestationRegistry artifact", function () {
    expect(abiSourceArtifact()).to.equal("artifacts/contracts/AttestationRegistry.sol/AttestationRegistry.json");
    expect(attestationRegistryAbi).to.deep.equal(readArtifactAbi());
  });

  it("is exactly what scripts/generate-abi.ts writes", async function () {
    const committed = readFileSync(path.join(__dirname, "..", "..", abiFile), "utf8");
    expect(committed).to.equal(await renderAbiModule());
  });

  it("includes the owner and ERC-5267 functions besides the interface", function () {
    const names = attestationRegistryAbi.map((item) => ("name" in item ? item.name : item.type));
    for (const name of [
      "owner",
      "pendingOwner",
      "acceptOwnership",
      "eip712Domain",
      "verify",
      "BondTooLow",
      "Registered",
    ]) {
      expect(names).to.include(name);
    }
  });
});
