// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Attestation} from "../Common.sol";
import {IAttestationRegistry} from "../IAttestationRegistry.sol";

/// @title ListingGuard
/// @notice Example consumer of an `AttestationRegistry`: lists a pool only on a valid attestation from the registry
/// with at least `minHorizonDays` and `minConfidence`, optionally from one pinned attester.
/// @dev Checks the cheap fields first and calls `verify` last. `verify` never reverts on bad input, so the guard turns
/// its `false` into its own error. A valid attestation says a bonded key signed the claim; it does not make the claim
/// correct, which is why a consumer sets its own thresholds.
contract ListingGuard {
    /// @notice The registry rejected the attestation (bad signature, unbonded or revoked, or expired).
    /// @param attester The recovered signer, or zero when the signature is malformed.
    error InvalidAttestation(address attester);

    /// @notice The signer is not the pinned attester.
    /// @param attester The recovered signer.
    /// @param expected The pinned attester.
    error UnexpectedAttester(address attester, address expected);

    /// @notice The attested horizon is shorter than required.
    /// @param horizonDays The attested horizon.
    /// @param minHorizonDays The required minimum.
    error HorizonTooShort(uint32 horizonDays, uint32 minHorizonDays);

    /// @notice The attested confidence is lower than required.
    /// @param confidence The attested confidence, in hundredths.
    /// @param minConfidence The required minimum, in hundredths.
    error ConfidenceTooLow(uint16 confidence, uint16 minConfidence);

    /// @notice A pool was listed.
    /// @param chainId The pool's chain.
    /// @param pool The pool.
    /// @param attester Who attested it.
    /// @param horizonDays The attested horizon.
    /// @param confidence The attested confidence, in hundredths.
    event PoolListed(
        uint256 indexed chainId,
        address indexed pool,
        address indexed attester,
        uint32 horizonDays,
        uint16 confidence
    );

    IAttestationRegistry private immutable _REGISTRY;
    uint32 private immutable _MIN_HORIZON_DAYS;
    uint16 private immutable _MIN_CONFIDENCE;
    address private immutable _PINNED_ATTESTER;

    mapping(uint256 chainId => mapping(address pool => bool listed)) private _listed;

    /// @param registry_ The registry.
    /// @param minHorizonDays_ The shortest acceptable horizon, in days.
    /// @param minConfidence_ The lowest acceptable confidence, in hundredths.
    /// @param pinnedAttester_ The only accepted attester, or zero for any.
    constructor(
        IAttestationRegistry registry_,
        uint32 minHorizonDays_,
        uint16 minConfidence_,
        address pinnedAttester_
    ) {
        _REGISTRY = registry_;
        _MIN_HORIZON_DAYS = minHorizonDays_;
        _MIN_CONFIDENCE = minConfidence_;
        _PINNED_ATTESTER = pinnedAttester_;
    }

    /// @notice Lists `a.pool` on `a.chainId` if the attestation passes the registry and this guard's thresholds.
    /// @param a The attestation.
    /// @param signature Its 65-byte signature.
    function list(Attestation calldata a, bytes calldata signature) external {
        if (a.horizonDays < _MIN_HORIZON_DAYS) revert HorizonTooShort(a.horizonDays, _MIN_HORIZON_DAYS);
        if (a.confidence < _MIN_CONFIDENCE) revert ConfidenceTooLow(a.confidence, _MIN_CONFIDENCE);
        (bool valid, address attester) = _REGISTRY.verify(a, signature);
        if (!valid) revert InvalidAttestation(attester);
        if (_PINNED_ATTESTER != address(0) && attester != _PINNED_ATTESTER) {
            revert UnexpectedAttester(attester, _PINNED_ATTESTER);
        }

        _listed[a.chainId][a.pool] = true;
        emit PoolListed(a.chainId, a.pool, attester, a.horizonDays, a.confidence);
    }

    /// @notice Whether a pool has been listed.
    /// @param chainId The pool's chain.
    /// @param pool The pool.
    /// @return listed True once listed.
    function isListed(uint256 chainId, address pool) external view returns (bool listed) {
        listed = _listed[chainId][pool];
    }

    /// @notice The registry that checks signatures, bonds and revocations.
    /// @return The registry.
    function registry() external view returns (IAttestationRegistry) {
        return _REGISTRY;
    }

    /// @notice The shortest acceptable horizon, in days.
    /// @return The minimum horizon.
    function minHorizonDays() external view returns (uint32) {
        return _MIN_HORIZON_DAYS;
    }

    /// @notice The lowest acceptable confidence, in hundredths.
    /// @return The minimum confidence.
    function minConfidence() external view returns (uint16) {
        return _MIN_CONFIDENCE;
    }

    /// @notice The only attester accepted, or zero for any registered attester.
    /// @return The pinned attester.
    function pinnedAttester() external view returns (address) {
        return _PINNED_ATTESTER;
    }
}
