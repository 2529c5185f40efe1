import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

/** Default minimum bond: 1 ether. */
export const DEFAULT_MIN_BOND = 10n ** 18n;
/** Default unbonding period: 7 days, in seconds. */
export const DEFAULT_UNBONDING_PERIOD = 7n * 24n * 60n * 60n;

/**
 * Deploys `AttestationRegistry`.
 *
 * Parameters (module `AttestationRegistryModule`): `owner` (default: the first account), `minBond` in wei
 * (default 1 ether), `unbondingPeriod` in seconds (default 7 days). Per-network values live in
 * `ignition/parameters/<network>.json`. The constructor rejects `minBond` of 0 or above 2^96 - 1 wei
 * (`InvalidMinBond`) and an `unbondingPeriod` of 0 or above 3,650 days (`InvalidUnbondingPeriod`); the defaults are
 * inside both.
 *
 * @example
 * npx hardhat ignition deploy ignition/modules/AttestationRegistry.ts --network localhost \
 *   --parameters ignition/parameters/localhost.json
 */
export const AttestationRegistryModule = buildModule("AttestationRegistryModule", (m) => {
  const owner = m.getParameter("owner", m.getAccount(0));
  const minBond = m.getParameter("minBond", DEFAULT_MIN_BOND);
  const unbondingPeriod = m.getParameter("unbondingPeriod", DEFAULT_UNBONDING_PERIOD);

  const registry = m.contract("AttestationRegistry", [owner, minBond, unbondingPeriod]);

  return { registry };
});

export default AttestationRegistryModule;
