// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice A v2 attestation: the EIP-712 form of the service's signed liquidity claim.
/// @dev Field order and widths are part of the signed type; see `ATTESTATION_TYPEHASH`.
/// @param chainId The chain of the attested pool (may differ from the registry's chain).
/// @param pool The attested pool address.
/// @param confidence Confidence in hundredths (0.85 is 85): the integer behind the v1 two-digit string.
/// @param horizonDays The claimed liquidity horizon, in days.
/// @param issuedAt Issue time, Unix seconds.
/// @param expiresAt Last second at which the attestation is valid on chain (the spec's `validUntil`).
struct Attestation {
    uint256 chainId;
    address pool;
    uint16 confidence;
    uint32 horizonDays;
    uint64 issuedAt;
    uint64 expiresAt;
}

/// @notice The full state of one attester, as returned by `IAttestationRegistry.getAttester`.
/// @param registered Whether the key is registered (false after deregistration or withdrawal).
/// @param unbonding Whether the attester has requested unbonding or was deregistered (it backs nothing).
/// @param hasRevoked Whether the attester has ever revoked a digest.
/// @param bond The bond currently held for the attester, in wei.
/// @param withdrawableAt When the bond can be withdrawn (0 while not unbonding), Unix seconds.
/// @param beneficiary Where a withdrawal sends the bond.
struct AttesterInfo {
    bool registered;
    bool unbonding;
    bool hasRevoked;
    uint96 bond;
    uint64 withdrawableAt;
    address beneficiary;
}

// keccak256("Attestation(uint256 chainId,address pool,uint16 confidence,uint32 horizonDays,uint64 issuedAt,uint64 expiresAt)")
bytes32 constant ATTESTATION_TYPEHASH = keccak256(
    "Attestation(uint256 chainId,address pool,uint16 confidence,uint32 horizonDays,uint64 issuedAt,uint64 expiresAt)"
);
