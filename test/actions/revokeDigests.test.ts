import { expect } from "chai";
import { decodeFunctionData, keccak256, toHex, type Hash } from "viem";

import { attestationRegistryAbi } from "../../src/abi/attestationRegistryAbi";
import { isDigestRevoked } from "../../src/actions/isDigestRevoked";
import { registerAttester } from "../../src/actions/registerAttester";
import { revokeDigests } from "../../src/actions/revokeDigests";
import { AlreadyRevokedError } from "../../src/errors/registry";
import { InvalidDigestError } from "../../src/errors/rpc";
import { loadActionsFixture, MIN_BOND } from "../helpers/actionsFixture";

const digestA: Hash = keccak256(toHex("attestation A"));
const digestB: Hash = keccak256(toHex("attestation B"));

describe("revokeDigests", function () {
  it("revokes one digest with revoke(digest)", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    const { hash, state, digests } = await revokeDigests({
      publicClient,
      walletClient: attesterWallet,
      registry,
      digests: digestA,
    });
    const tx = await publicClient.getTransaction({ hash });
    expect(decodeFunctionData({ abi: attestationRegistryAbi, data: tx.input }).functionName).to.equal("revoke");
    expect(digests).to.deep.equal([digestA]);
    expect(state.hasRevoked).to.equal(true);
    const attester = attesterWallet.account.address;
    expect(await isDigestRevoked({ publicClient, registry, attester, digest: digestA })).to.equal(true);
    expect(await isDigestRevoked({ publicClient, registry, attester, digest: digestB })).to.equal(false);
  });

  it("revokes several digests in one revokeBatch call, dropping repeats", async function () {
    const { publicClient, attesterWallet, registry } = await loadActionsFixture();
    await registerAttester({ publicClient, walletClient: attesterWallet, registry, bond: MIN_BOND });
    const { hash, digests } = await revokeDigests({
      publicClient,
      walletClient: attesterWallet,
      registry,
      digests: [digestA, digestB, digestA.toUpperCase().replace("0X", "0x") as Hash],
    });
    const call = decodeFunctionData({
      abi: attestationRegistryAbi,
      data: (await publicClient.getTransaction({ hash })).input,
    });
    expect(call.functionName).to.equal("revokeBatch");
    expect(call.args).to.deep.equal([[digestA, digestB]]);
    expect(digests).to.deep.equal([digestA, digestB]);
    const attester = attesterWallet.account.address;
    expect(await isDigestRevoked({ publicClient, registry, attester, digest: digestB })).to.equal(true);
  });

  it("affects only the caller's own digests", async function () {
    const { publicClient, attesterWallet, otherWallet, registry } = await loadActionsFixture();
    await revokeDigests({ publicClient, walletClient: otherWallet, registry, digests: [digestA] });
    const attester = attesterWallet.account.address;
    expect(await isDigestRevoked({ publicClient, registry, attester, digest: digestA })).to.equal(false);
  });

  describe("validations", function () {
    it("throws AlreadyRevokedError naming the digest, and revokes none of the batch", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      await revokeDigests({ publicClient, walletClient: attesterWallet, registry, digests: digestA });
      const error = await revokeDigests({
        publicClient,
        walletClient: attesterWallet,
        registry,
        digests: [digestB, digestA],
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(AlreadyRevokedError);
      expect((error as AlreadyRevokedError).digest).to.equal(digestA);
      const attester = attesterWallet.account.address;
      expect(await isDigestRevoked({ publicClient, registry, attester, digest: digestB })).to.equal(false);
    });

    it("throws InvalidDigestError for a malformed digest or an empty list, before any call", async function () {
      const { publicClient, attesterWallet, registry } = await loadActionsFixture();
      for (const digests of [["0x1234"], [], [`${digestA}00`], [digestA.slice(2)]] as Hash[][]) {
        const error = await revokeDigests({ publicClient, walletClient: attesterWallet, registry, digests }).catch(
          (e: unknown) => e,
        );
        expect(error, JSON.stringify(digests)).to.be.instanceOf(InvalidDigestError);
      }
      const error = await isDigestRevoked({
        publicClient,
        registry,
        attester: attesterWallet.account.address,
        digest: "0xzz" as Hash,
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(InvalidDigestError);
    });
  });
});
