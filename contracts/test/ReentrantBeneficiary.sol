// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Attestation, AttesterInfo} from "../Common.sol";
import {IAttestationRegistry} from "../IAttestationRegistry.sol";

/// @title ReentrantBeneficiary
/// @notice Test harness: a beneficiary (and optionally an attester, or the registry's owner) whose `receive`
/// misbehaves. Depending on its mode it rejects ether, or re-enters the registry with a stored call (`withdraw`,
/// `slash`, ...) and records the outcome; while being paid it can also record an attester's record (`getAttester`)
/// and the result of `verify` on a stored attestation.
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
    /// @notice Whether `getAttester(watchedAttester)` was read during a payment.
    bool public recordSeen;
    /// @notice `getAttester(watchedAttester)` as it stood during the last payment: shows whether the registry updated
    /// its state before paying (checks-effects-interactions).
    AttesterInfo public seenRecord;
    /// @notice The attester whose record `receive` reads (zero: none).
    address public watchedAttester;

    Attestation private _attestation;
    bytes private _signature;
    bytes private _reentryCall;

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
            (reentrySucceeded, reentryData) = address(_REGISTRY).call(_reentryCall);
        }
        if (watchedAttester != address(0)) {
            recordSeen = true;
            seenRecord = _REGISTRY.getAttester(watchedAttester);
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

    /// @notice Sets the attester whose record `receive` reads while being paid.
    /// @param attester The attester (zero: none).
    function watchAttester(address attester) external {
        watchedAttester = attester;
    }

    /// @notice Sets the call that `receive` makes into the registry in `Reenter` mode.
    /// @param data ABI-encoded registry call, e.g. `withdraw()` or `slash(...)`.
    function setReentryCall(bytes calldata data) external {
        _reentryCall = data;
    }

    /// @notice Calls the registry as this contract (to register, unbond, withdraw, or slash when it is the owner).
    /// @param data ABI-encoded registry call.
    function callRegistry(bytes calldata data) external payable {
        // solhint-disable-next-line avoid-low-level-calls
        (bool success, bytes memory returnData) = address(_REGISTRY).call{value: msg.value}(data);
        if (!success) {
            // Bubble the registry's custom error up unchanged.
            assembly ("memory-safe") {
                revert(add(returnData, 0x20), mload(returnData)) // the bytes after the length word, as returned
            }
        }
    }

    /// @notice Stores an attestation that `receive` passes to `verify`.
    /// @param a The attestation.
    /// @param signature Its signature.
    function setAttestation(Attestation calldata a, bytes calldata signature) external {
        _attestation = a;
        _signature = signature;
    }
}
