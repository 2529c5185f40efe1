import hre, { ethers } from "hardhat";
import { getAddress, type Address, type Hex } from "viem";

import { AttestationRegistryModule } from "../../ignition/modules/AttestationRegistry";
import { AttestationRegistry__factory } from "../../typechain-types";
import { registryDomain, signAttestation, attestationDigest, type AttestationStruct } from "./eip712";

/** Minimum bond used by the tests: 1 ether. */
export const MIN_BOND = ethers.parseEther("1");
/** Unbonding period used by the tests: 7 days. */
export const UNBONDING_PERIOD = 7n * 24n * 60n * 60n;

/**
 * Fixed test keys, `keccak256("AttestationRegistry test key: <name>")`: not Hardhat's default accounts, so they are
 * distinct from every signer and start unfunded and unregistered.
 */
export const ATTESTER_KEY: Hex = "0xf45405f406cfa1b3fdefbf2fced0692e0aee4e0dfefb030bb3c043bfcf9e8bb0";
export const SECOND_ATTESTER_KEY: Hex = "0x6d095ca042ad24dd1f8e1a49d4044eac8e4519207e383701accf85fa1087d24c";
export const UNREGISTERED_KEY: Hex = "0x5cad12a5e24f9db875dc123fd679821536422de20cd011e48e77bf321c624abc";

/**
 * Deploys a bare registry through the Ignition module (so the tests also exercise the deploy code): owner Hardhat
 * account 0, `MIN_BOND`, `UNBONDING_PERIOD`, no attester. Load it with `loadFixture`.
 */
export async function deployFixture(): Promise<{ registry: Address }> {
  const [owner] = await ethers.getSigners();
  const deployed = await hre.ignition.deploy(AttestationRegistryModule, {
    parameters: {
      AttestationRegistryModule: { owner: owner.address, minBond: MIN_BOND, unbondingPeriod: UNBONDING_PERIOD },
    },
  });
  return { registry: getAddress(await deployed.registry.getAddress()) };
}

/**
 * {@link deployFixture}, then registers one attester key with exactly `MIN_BOND`. Load it with `loadFixture` in every
 * test.
 */
export async function deployRegistryFixture() {
  const [owner, stranger, payer, beneficiary, newOwner] = await ethers.getSigners();
  const { registry: registryAddress } = await deployFixture();
  const registry = AttestationRegistry__factory.connect(registryAddress, owner);

  const attester = new ethers.Wallet(ATTESTER_KEY, ethers.provider);
  const secondAttester = new ethers.Wallet(SECOND_ATTESTER_KEY, ethers.provider);
  const unregistered = new ethers.Wallet(UNREGISTERED_KEY, ethers.provider);
  for (const wallet of [attester, secondAttester, unregistered]) {
    await owner.sendTransaction({ to: wallet.address, value: ethers.parseEther("100") });
  }
  await registry.connect(attester).register(beneficiary.address, { value: MIN_BOND });

  const { chainId } = await ethers.provider.getNetwork();
  const domain = registryDomain(chainId, registryAddress);
  const now = BigInt((await ethers.provider.getBlock("latest"))!.timestamp);

  /** A well-formed attestation that expires one day from the fixture's block time. */
  const attestation: AttestationStruct = {
    chainId: 8453n,
    pool: "0x1111111111111111111111111111111111111111",
    confidence: 85,
    horizonDays: 30,
    issuedAt: now,
    expiresAt: now + 86_400n,
  };
  const sign = (message: AttestationStruct, key: Hex = ATTESTER_KEY) => signAttestation(key, domain, message);
  const digest = (message: AttestationStruct) => attestationDigest(domain, message);
  const signature = await sign(attestation);

  return {
    registry,
    registryAddress,
    owner,
    stranger,
    payer,
    beneficiary,
    newOwner,
    attester,
    secondAttester,
    unregistered,
    chainId,
    domain,
    attestation,
    signature,
    sign,
    digest,
  };
}
