// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Attestation} from "../Common.sol";
import {IAttestationRegistry} from "../IAttestationRegistry.sol";

/// @title VerifyGasCaller
/// @notice Test harness: calls `verify` twice in one call frame and reports the gas each call cost as seen by a
/// calling contract. The first call pays for the cold registry account and cold storage, the second runs warm.
/// @dev The figures include the caller's ABI encoding and decoding around the call, which a real consumer also pays.
contract VerifyGasCaller {
    /// @notice The result of the last `measure`.
    /// @param cold Gas of the first (cold) call.
    /// @param warm Gas of the second (warm) call.
    /// @param valid What `verify` returned.
    /// @param attester What `verify` returned.
    event Measured(uint256 cold, uint256 warm, bool valid, address attester);

    /// @notice Calls `registry.verify(a, signature)` twice and measures each call with `gasleft()`.
    /// @param registry The registry.
    /// @param a The attestation.
    /// @param signature The signature.
    /// @return cold Gas of the first call.
    /// @return warm Gas of the second call.
    /// @return valid The result of `verify`.
    /// @return attester The recovered attester.
    function measure(
        IAttestationRegistry registry,
        Attestation calldata a,
        bytes calldata signature
    ) external returns (uint256 cold, uint256 warm, bool valid, address attester) {
        uint256 before = gasleft();
        (valid, attester) = registry.verify(a, signature);
        cold = before - gasleft();

        before = gasleft();
        (valid, attester) = registry.verify(a, signature);
        warm = before - gasleft();

        emit Measured(cold, warm, valid, attester);
    }

    /// @notice Calls `verify` once; the transaction's gas is the full cost an EOA pays to check an attestation
    /// through a contract.
    /// @param registry The registry.
    /// @param a The attestation.
    /// @param signature The signature.
    /// @return valid The result of `verify`.
    function check(
        IAttestationRegistry registry,
        Attestation calldata a,
        bytes calldata signature
    ) external returns (bool valid) {
        address attester;
        (valid, attester) = registry.verify(a, signature);
        emit Measured(0, 0, valid, attester);
    }
}
