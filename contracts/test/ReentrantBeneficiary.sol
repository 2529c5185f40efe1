// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Attestation} from "../Common.sol";
import {IAttestationRegistry} from "../IAttestationRegistry.sol";

/// @title ReentrantBeneficiary
/// @notice Test harness: a beneficiary (and optionally an attester) whose `receive` misbehaves. Depending on its
/// mode it rejects ether, or re-enters `withdraw` and records the outcome, and it can call `verify` on a stored
/// attestation while the registry is paying it.
contract ReentrantBeneficiary {
    /// @notice What `receive` does.
    enum Mode {
        Accept,
        Reject,
        Reenter
    }

    /// @notice Raised by `receive` in `Reject` mode.
    error Rejected();

    IAttestationRegistry private immutable _REGISTRY;
    /// @notice The current mode.
    Mode public mode;
    /// @notice Number of payments received.
    uint256 public payments;
    /// @notice Total ether received.
    uint256 public received;
    /// @notice Whether the re-entrant `withdraw` succeeded.
    bool public reentrySucceeded;
    /// @notice The revert data of the re-entrant `withdraw`.
    bytes public reentryData;
    /// @notice Whether `verify` was called during a payment.
    bool public verifyCalled;
    /// @notice `verify`'s `valid` during the payment.
    bool public verifiedValid;
    /// @notice `verify`'s `attester` during the payment.
    address public verifiedAttester;

    Attestation private _attestation;
    bytes private _signature;

    /// @param registry_ The registry under test.
    constructor(IAttestationRegistry registry_) {
        _REGISTRY = registry_;
    }

    /// @notice Misbehaves according to `mode`, then optionally calls `verify`.
    // Misbehaving on receipt is this harness's purpose.
    // solhint-disable-next-line no-complex-fallback
    receive() external payable {
        if (mode == Mode.Reject) revert Rejected();
        ++payments;
        received += msg.value;
        if (mode == Mode.Reenter) {
            // solhint-disable-next-line avoid-low-level-calls
            (reentrySucceeded, reentryData) = address(_REGISTRY).call(
                abi.encodeCall(IAttestationRegistry.withdraw, ())
            );
        }
        if (_signature.length != 0) {
            verifyCalled = true;
            (verifiedValid, verifiedAttester) = _REGISTRY.verify(_attestation, _signature);
        }
    }

    /// @notice Sets the mode.
    /// @param mode_ The new mode.
    function setMode(Mode mode_) external {
        mode = mode_;
    }

    /// @notice Stores an attestation that `receive` passes to `verify`.
    /// @param a The attestation.
    /// @param signature Its signature.
    function setAttestation(Attestation calldata a, bytes calldata signature) external {
        _attestation = a;
        _signature = signature;
    }

    /// @notice Registers this contract as an attester that is its own beneficiary.
    function register() external payable {
        _REGISTRY.register{value: msg.value}(address(this));
    }

    /// @notice Requests unbonding of this contract's bond.
    function requestUnbond() external {
        _REGISTRY.requestUnbond();
    }

    /// @notice Withdraws this contract's bond (to itself).
    function withdraw() external {
        _REGISTRY.withdraw();
    }
}
