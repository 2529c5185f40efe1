// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Attestation, AttesterInfo} from "./Common.sol";

/// @title IAttestationRegistry
/// @notice Bonded registry of attester keys that verifies EIP-712 liquidity attestations on chain.
/// @dev Lifecycle of an attester key: `register` (bond >= `minBond`) -> optional `addBond` top-ups by anyone ->
/// `requestUnbond` or `deregister` (from then on it backs nothing) -> after `unbondingPeriod`, `withdraw` sends
/// the whole bond to the beneficiary and clears the record, after which the key may register again.
/// The owner may `removeAttester` (key compromise) and `slash` part or all of a bond to a recipient. Removal is
/// permanent for that key: it may still withdraw its bond, but it can never register again (`AttesterRemoved`).
interface IAttestationRegistry {
    // ----------------------------------------------------------------------------------------------------------------
    // Errors
    // ----------------------------------------------------------------------------------------------------------------

    /// @notice The bond sent (or left after a change) is below the minimum.
    /// @param bond The bond that would result.
    /// @param minBond The registry's minimum bond.
    error BondTooLow(uint256 bond, uint256 minBond);

    /// @notice The key already has a record (registered, or a bond still waiting to be withdrawn).
    /// @param attester The attester key.
    error AlreadyRegistered(address attester);

    /// @notice The key is not registered.
    /// @param attester The attester key.
    error NotRegistered(address attester);

    /// @notice The attester is already unbonding (or was deregistered).
    /// @param attester The attester key.
    /// @param withdrawableAt When its bond becomes withdrawable.
    error AlreadyUnbonding(address attester, uint64 withdrawableAt);

    /// @notice The attester has not requested unbonding, so there is nothing to withdraw yet.
    /// @param attester The attester key.
    error NotUnbonding(address attester);

    /// @notice The unbonding period has not elapsed.
    /// @param attester The attester key.
    /// @param withdrawableAt When the bond becomes withdrawable.
    /// @param currentTime The current block time.
    error UnbondingNotElapsed(address attester, uint64 withdrawableAt, uint64 currentTime);

    /// @notice The attester has already revoked this digest.
    /// @param attester The attester key (the caller).
    /// @param digest The EIP-712 digest.
    error AlreadyRevoked(address attester, bytes32 digest);

    /// @notice The beneficiary or recipient is the zero address.
    error ZeroAddress();

    /// @notice A payment of zero wei, or a slash of zero, was requested.
    error ZeroAmount();

    /// @notice The slash amount exceeds the attester's bond.
    /// @param attester The attester key.
    /// @param amount The requested slash.
    /// @param bond The attester's bond.
    error SlashExceedsBond(address attester, uint256 amount, uint256 bond);

    /// @notice The bond would exceed what the packed record can hold (2^96 - 1 wei).
    /// @param bond The bond that would result.
    error BondOverflow(uint256 bond);

    /// @notice Sending ether failed.
    /// @param to The recipient.
    /// @param amount The amount in wei.
    error TransferFailed(address to, uint256 amount);

    /// @notice The owner removed this key (`removeAttester`): removal is permanent, the key can never register again.
    /// @param attester The attester key.
    error AttesterRemoved(address attester);

    /// @notice The attestation's calldata does not decode to a valid `Attestation`: a narrow field (`pool`,
    /// `confidence`, `horizonDays`, `issuedAt`, `expiresAt`) has bits set above its type's width.
    error MalformedAttestation();

    /// @notice Constructor: the minimum bond must be between 1 wei and 2^96 - 1 wei. Zero would keep a fully slashed
    /// attester valid; above 2^96 - 1 nobody could register (bonds are stored in 96 bits).
    /// @param minBond The rejected minimum bond.
    error InvalidMinBond(uint256 minBond);

    /// @notice Constructor: the unbonding period is 0 (an attester could withdraw its bond in the block it unbonds,
    /// before any slash of a bad claim could land) or exceeds the maximum (3,650 days), which keeps
    /// `now + unbondingPeriod` far inside 64 bits so that unbonding can never overflow and lock bonds.
    /// @param unbondingPeriod The rejected period, in seconds.
    /// @param maxUnbondingPeriod The largest accepted period, in seconds (3,650 days).
    error InvalidUnbondingPeriod(uint64 unbondingPeriod, uint64 maxUnbondingPeriod);

    // ----------------------------------------------------------------------------------------------------------------
    // Events
    // ----------------------------------------------------------------------------------------------------------------

    /// @notice An attester key registered with a bond.
    /// @param attester The attester key.
    /// @param beneficiary Where withdrawals go.
    /// @param bond The initial bond, in wei.
    event Registered(address indexed attester, address indexed beneficiary, uint256 bond);

    /// @notice Ether was added to an attester's bond.
    /// @param attester The attester key.
    /// @param from Who paid.
    /// @param amount The amount added, in wei.
    /// @param bond The bond after the top-up.
    event BondAdded(address indexed attester, address indexed from, uint256 amount, uint256 bond);

    /// @notice The attester requested unbonding; it backs nothing from this block on.
    /// @param attester The attester key.
    /// @param bond The bond that will be withdrawable.
    /// @param withdrawableAt When it becomes withdrawable.
    event UnbondRequested(address indexed attester, uint256 bond, uint64 withdrawableAt);

    /// @notice An attester was deregistered, by itself or by the owner.
    /// @param attester The attester key.
    /// @param by The caller (the attester or the owner).
    /// @param withdrawableAt When its bond becomes withdrawable.
    event Deregistered(address indexed attester, address indexed by, uint64 withdrawableAt);

    /// @notice A bond was withdrawn to the beneficiary and the record cleared.
    /// @param attester The attester key.
    /// @param beneficiary The recipient.
    /// @param amount The amount, in wei.
    event Withdrawn(address indexed attester, address indexed beneficiary, uint256 amount);

    /// @notice The owner slashed part or all of a bond.
    /// @param attester The attester key.
    /// @param recipient Who received the slashed ether.
    /// @param amount The amount slashed, in wei.
    /// @param bond The bond left.
    event Slashed(address indexed attester, address indexed recipient, uint256 amount, uint256 bond);

    /// @notice An attester revoked one of its own digests.
    /// @param attester The attester key (the caller).
    /// @param digest The revoked EIP-712 digest.
    event Revoked(address indexed attester, bytes32 indexed digest);

    // ----------------------------------------------------------------------------------------------------------------
    // Attester lifecycle
    // ----------------------------------------------------------------------------------------------------------------

    /// @notice Registers `msg.sender` as an attester key with `msg.value` as its bond.
    /// @dev Reverts with `BondTooLow` below `minBond`, `AlreadyRegistered` if the key has any record (also a bond
    /// still waiting to be withdrawn), `AttesterRemoved` if the owner ever removed the key, `ZeroAddress` for a zero
    /// beneficiary.
    /// @param beneficiary The address that receives the bond on withdrawal.
    function register(address beneficiary) external payable;

    /// @notice Adds `msg.value` to a registered, non-unbonding attester's bond. Anyone may pay.
    /// @dev This is how a bond reduced below the minimum by a slash becomes valid again.
    /// @param attester The attester key.
    function addBond(address attester) external payable;

    /// @notice Starts unbonding `msg.sender`'s whole bond. The attester backs nothing from this block on.
    function requestUnbond() external;

    /// @notice Deregisters `msg.sender` and starts unbonding its bond (if not already unbonding).
    function deregister() external;

    /// @notice After the unbonding period, sends `msg.sender`'s whole bond to its beneficiary and clears the record.
    function withdraw() external;

    // ----------------------------------------------------------------------------------------------------------------
    // Revocation
    // ----------------------------------------------------------------------------------------------------------------

    /// @notice Revokes one of `msg.sender`'s own digests. It cannot affect another attester's digests.
    /// @param digest The EIP-712 digest (see `hashAttestation`).
    function revoke(bytes32 digest) external;

    /// @notice Revokes several of `msg.sender`'s own digests in one call.
    /// @param digests The EIP-712 digests; reverts with `AlreadyRevoked` on any already revoked.
    function revokeBatch(bytes32[] calldata digests) external;

    // ----------------------------------------------------------------------------------------------------------------
    // Owner
    // ----------------------------------------------------------------------------------------------------------------

    /// @notice Owner only: deregisters an attester (for instance after a key compromise) and starts unbonding.
    /// @dev Permanent for that key: it may still withdraw its bond to its beneficiary after the unbonding period, but
    /// `register` reverts with `AttesterRemoved` for it forever, so a compromised key never backs anything again.
    /// @param attester The attester key.
    function removeAttester(address attester) external;

    /// @notice Owner only: takes `amount` of an attester's bond and sends it to `recipient`.
    /// @param attester The attester key.
    /// @param amount The amount in wei (at most the bond).
    /// @param recipient Who receives it.
    function slash(address attester, uint256 amount, address recipient) external;

    // ----------------------------------------------------------------------------------------------------------------
    // Views
    // ----------------------------------------------------------------------------------------------------------------

    /// @notice Checks an attestation and its signature against the registry.
    /// @dev Never reverts on bad input. `valid` is true only when the signature is a well-formed low-s secp256k1
    /// signature (65 bytes, v in {27, 28}) over `hashAttestation(a)`, its signer is registered and not unbonding,
    /// its bond is at least `minBond`, `block.timestamp <= a.expiresAt`, and the signer has not revoked the digest.
    /// Calldata whose narrow fields have bits above their type's width (no valid `Attestation`) gives
    /// `(false, address(0))`, so no digest of a malformed encoding is ever accepted.
    /// @param a The attestation.
    /// @param signature The 65-byte `r || s || v` signature.
    /// @return valid Whether all conditions hold.
    /// @return attester The recovered signer whenever recovery succeeds (also when `valid` is false), else zero.
    function verify(
        Attestation calldata a,
        bytes calldata signature
    ) external view returns (bool valid, address attester);

    /// @notice The EIP-712 digest of an attestation under this registry's domain.
    /// @dev Reverts with `MalformedAttestation` when a narrow field has bits above its type's width.
    /// @param a The attestation.
    /// @return digest The digest a v2 signature signs.
    function hashAttestation(Attestation calldata a) external view returns (bytes32 digest);

    /// @notice The full state of an attester key.
    /// @param attester The attester key.
    /// @return info Its record (all zero for an unknown key).
    function getAttester(address attester) external view returns (AttesterInfo memory info);

    /// @notice Whether `attester` has revoked `digest`.
    /// @param attester The attester key.
    /// @param digest The EIP-712 digest.
    /// @return revoked True if revoked.
    function isRevoked(address attester, bytes32 digest) external view returns (bool revoked);

    /// @notice The minimum bond, in wei (immutable).
    /// @return The minimum bond.
    function minBond() external view returns (uint256);

    /// @notice The delay between an unbonding request and the withdrawal, in seconds (immutable).
    /// @return The unbonding period.
    function unbondingPeriod() external view returns (uint64);
}
