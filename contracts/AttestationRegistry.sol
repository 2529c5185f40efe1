// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {Attestation, AttesterInfo, ATTESTATION_TYPEHASH} from "./Common.sol";
import {IAttestationRegistry} from "./IAttestationRegistry.sol";

/// @title AttestationRegistry
/// @notice Bonded registry of attester keys that verifies EIP-712 liquidity attestations on chain.
/// @dev Trust and replay assumptions:
///
/// IMPORTANT: A valid result means that a bonded, registered key signed this exact attestation for THIS registry on
/// THIS chain, that the key has not revoked it and that it has not expired. It does not mean the claim is correct.
///
/// NOTE: The EIP-712 domain binds every signature to `block.chainid` and `address(this)`: a signature made for another
/// registry or another chain recovers to a different address and is never valid here. `Attestation.chainId` is the
/// pool's chain and is only part of the signed content.
///
/// NOTE: Signatures are accepted only in the canonical low-s form (s <= n/2) with v in {27, 28} and exactly 65 bytes,
/// so each signed attestation has one accepted encoding. `verify` never reverts on such input; it returns
/// `(false, address(0))` instead.
///
/// NOTE: Only canonical encodings are hashed: calldata whose narrow fields (`pool`, `confidence`, `horizonDays`,
/// `issuedAt`, `expiresAt`) have bits above their type's width decodes to no `Attestation`, so `verify` returns
/// `(false, address(0))` for it and `hashAttestation` reverts with `MalformedAttestation`, even if a key (say a KMS
/// that signs raw digests) signed the hash of those words.
///
/// NOTE: Revocations are keyed by (signer, digest): only the key that signed a digest can revoke it, and they survive
/// a withdrawal and a later re-registration of the same key.
///
/// IMPORTANT: `removeAttester` is permanent for that key: a sticky `removed` bit survives the withdrawal, and
/// `register` reverts with `AttesterRemoved` for it, so a compromised key can never back anything again.
///
/// The owner (two-step transfer) can remove an attester and slash its bond; it cannot move any other ether, revoke a
/// digest or make an invalid signature valid. Ether leaves the contract only in `withdraw` and `slash`, both of which
/// update state and emit before the transfer and are guarded against re-entry.
contract AttestationRegistry is IAttestationRegistry, Ownable2Step, EIP712, ReentrancyGuardTransient {
    // ----------------------------------------------------------------------------------------------------------------
    // Types
    // ----------------------------------------------------------------------------------------------------------------

    /// @dev Everything `verify` reads sits in the first slot (96 + 64 + 4 * 8 = 192 bits), so a check costs one SLOAD
    /// (plus a revocation lookup only for attesters that ever revoked). The beneficiary, which only `withdraw` needs,
    /// lives in the second slot. `hasRevoked` and `removed` are sticky: `withdraw` keeps both. `verify` never reads
    /// `removed`: a removed key is also not registered, which `verify` already checks.
    struct Record {
        uint96 bond;
        uint64 withdrawableAt;
        bool registered;
        bool unbonding;
        bool hasRevoked;
        bool removed;
        address beneficiary;
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Constants and immutables
    // ----------------------------------------------------------------------------------------------------------------

    /// @dev secp256k1n / 2: the largest `s` of a canonical (low-s) signature (EIP-2).
    uint256 private constant _HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @dev Bit layout of the first slot of `Record` (packed from the lowest bits in declaration order): bond in bits
    /// 0-95, withdrawableAt in bits 96-159, then one byte per flag. `verify` decodes the word directly.
    uint256 private constant _FLAGS_SHIFT = 160;
    /// @dev After `>> _FLAGS_SHIFT`: the `registered` byte (low) and the `unbonding` byte (next).
    uint256 private constant _REGISTERED_UNBONDING_MASK = 0xFFFF;
    /// @dev `registered == true && unbonding == false`.
    uint256 private constant _REGISTERED_ONLY = 0x0001;
    /// @dev The `hasRevoked` byte starts at bit 176; after `>> _HAS_REVOKED_SHIFT` its low bit is bit 0 (the
    /// `removed` byte above it lands at bit 8, which an `and` with a 0/1 value ignores).
    uint256 private constant _HAS_REVOKED_SHIFT = 176;

    /// @dev The longest accepted unbonding period: 3,650 days (ten years is already far past any sane delay). With it,
    /// `_time() + _UNBONDING_PERIOD` fits in 64 bits for every block time below 2^64 - 3,650 days (some 584 billion
    /// years), so `requestUnbond`, `deregister` and `removeAttester` never overflow and bonds are never locked.
    uint64 private constant _MAX_UNBONDING_PERIOD = 3650 days;

    uint256 private immutable _MIN_BOND;
    uint64 private immutable _UNBONDING_PERIOD;

    // ----------------------------------------------------------------------------------------------------------------
    // Storage
    // ----------------------------------------------------------------------------------------------------------------

    mapping(address attester => Record record) private _records;
    mapping(address attester => mapping(bytes32 digest => bool revoked)) private _revoked;

    // ----------------------------------------------------------------------------------------------------------------
    // Constructor
    // ----------------------------------------------------------------------------------------------------------------

    /// @param owner The initial owner (may remove attesters and slash bonds).
    /// @param minBond The minimum bond, in wei (immutable): 1 to 2^96 - 1, else `InvalidMinBond`.
    /// @param unbondingPeriod The delay between an unbonding request and the withdrawal, in seconds (immutable): at most
    /// 3,650 days, else `InvalidUnbondingPeriod`.
    constructor(
        address owner,
        uint256 minBond,
        uint64 unbondingPeriod
    ) Ownable(owner) EIP712("AttestationRegistry", "1") {
        if (minBond == 0 || minBond > type(uint96).max) revert InvalidMinBond(minBond);
        if (unbondingPeriod == 0 || unbondingPeriod > _MAX_UNBONDING_PERIOD) {
            revert InvalidUnbondingPeriod(unbondingPeriod, _MAX_UNBONDING_PERIOD);
        }
        _MIN_BOND = minBond;
        _UNBONDING_PERIOD = unbondingPeriod;
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Attester lifecycle
    // ----------------------------------------------------------------------------------------------------------------

    /// @inheritdoc IAttestationRegistry
    function register(address beneficiary) external payable {
        if (beneficiary == address(0)) revert ZeroAddress();
        Record storage record = _records[msg.sender];
        if (record.removed) revert AttesterRemoved(msg.sender);
        if (record.registered || record.unbonding) revert AlreadyRegistered(msg.sender);
        if (msg.value < _MIN_BOND) revert BondTooLow(msg.value, _MIN_BOND);
        if (msg.value > type(uint96).max) revert BondOverflow(msg.value);

        // `hasRevoked` is kept: revocations made before (or by an earlier registration of) this key stay in force.
        record.bond = uint96(msg.value);
        record.withdrawableAt = 0;
        record.registered = true;
        record.beneficiary = beneficiary;
        emit Registered(msg.sender, beneficiary, msg.value);
    }

    /// @inheritdoc IAttestationRegistry
    function addBond(address attester) external payable {
        if (msg.value == 0) revert ZeroAmount();
        Record storage record = _records[attester];
        if (!record.registered) revert NotRegistered(attester);
        if (record.unbonding) revert AlreadyUnbonding(attester, record.withdrawableAt);
        uint256 bond = uint256(record.bond) + msg.value;
        if (bond > type(uint96).max) revert BondOverflow(bond);

        record.bond = uint96(bond);
        emit BondAdded(attester, msg.sender, msg.value, bond);
    }

    /// @inheritdoc IAttestationRegistry
    function requestUnbond() external {
        Record storage record = _records[msg.sender];
        if (!record.registered) revert NotRegistered(msg.sender);
        if (record.unbonding) revert AlreadyUnbonding(msg.sender, record.withdrawableAt);

        uint64 withdrawableAt = _startUnbonding(record);
        emit UnbondRequested(msg.sender, record.bond, withdrawableAt);
    }

    /// @inheritdoc IAttestationRegistry
    function deregister() external {
        _deregister(msg.sender, false);
    }

    /// @inheritdoc IAttestationRegistry
    function withdraw() external nonReentrant {
        Record storage record = _records[msg.sender];
        if (!record.unbonding) {
            if (!record.registered) revert NotRegistered(msg.sender);
            revert NotUnbonding(msg.sender);
        }
        uint64 withdrawableAt = record.withdrawableAt;
        uint64 currentTime = _time();
        if (currentTime < withdrawableAt) revert UnbondingNotElapsed(msg.sender, withdrawableAt, currentTime);

        uint256 amount = record.bond;
        address beneficiary = record.beneficiary;
        // Clear the record before paying (checks-effects-interactions), but keep `hasRevoked` (the revocations stay in
        // `_revoked` and must still be consulted if this key registers again) and `removed` (removal is permanent).
        record.bond = 0;
        record.withdrawableAt = 0;
        record.unbonding = false;
        record.registered = false;
        record.beneficiary = address(0);
        emit Withdrawn(msg.sender, beneficiary, amount);

        // Nothing to pay after a full slash: skipping the call also keeps a beneficiary that rejects ether from
        // stranding the record (and the key) forever.
        if (amount != 0) _send(beneficiary, amount);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Revocation
    // ----------------------------------------------------------------------------------------------------------------

    /// @inheritdoc IAttestationRegistry
    function revoke(bytes32 digest) external {
        // The flag turns on `verify`'s revocation lookup for this key; it is an index, not a state of its own.
        _records[msg.sender].hasRevoked = true;
        _revoke(digest);
    }

    /// @inheritdoc IAttestationRegistry
    function revokeBatch(bytes32[] calldata digests) external {
        uint256 length = digests.length;
        // An empty batch revokes nothing and leaves the fast path of `verify` on.
        if (length != 0) _records[msg.sender].hasRevoked = true;
        // solc >= 0.8.22 drops the overflow check of `++i` in this loop shape on its own.
        for (uint256 i = 0; i < length; ++i) {
            _revoke(digests[i]);
        }
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Owner
    // ----------------------------------------------------------------------------------------------------------------

    /// @inheritdoc IAttestationRegistry
    function removeAttester(address attester) external onlyOwner {
        _deregister(attester, true);
    }

    /// @inheritdoc IAttestationRegistry
    function slash(address attester, uint256 amount, address recipient) external onlyOwner nonReentrant {
        if (amount == 0) revert ZeroAmount();
        if (recipient == address(0)) revert ZeroAddress();
        Record storage record = _records[attester];
        if (!record.registered && !record.unbonding) revert NotRegistered(attester);
        uint256 bond = record.bond;
        if (amount > bond) revert SlashExceedsBond(attester, amount, bond);

        // `amount <= bond` was checked just above.
        unchecked {
            bond -= amount;
        }
        // `bond` is below the old uint96 bond, so the cast is exact.
        record.bond = uint96(bond);
        emit Slashed(attester, recipient, amount, bond);

        _send(recipient, amount);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Views
    // ----------------------------------------------------------------------------------------------------------------

    /// @inheritdoc IAttestationRegistry
    /// @dev No early return when recovery fails: the record of address(0) is always empty (no call comes from it), so
    /// the checks give false for it and the valid path saves a branch. Dirty words (see `_dirtyBits`) recover nothing
    /// either: a key that signs raw digests (a KMS signing `hashAttestation` output) must never back calldata that
    /// decodes to no attestation, and `expiresAt` is a uint64 whenever it matters. The spec's boundaries are
    /// inclusive: bond at least the minimum, valid up to and including `expiresAt`.
    ///
    /// The body is one assembly block that ends in `return`: the digest (as `_digest`), the dirty-word check (as
    /// `_dirtyBits`), the signature recovery and the record check run inline, with no internal calls, no stack shuffling
    /// between them and no Solidity return encoding. `hashAttestation` computes the same digest through `_digest`; the
    /// vector and fuzz tests hold both to the EIP-712 reference.
    // One inline assembly block on purpose (see above); its comments are most of its lines.
    // solhint-disable-next-line function-max-lines
    function verify(
        Attestation calldata a,
        bytes calldata signature
    ) external view returns (bool valid, address attester) {
        bytes32 typeHash = ATTESTATION_TYPEHASH;
        bytes32 domainSeparator = _domainSeparatorV4();
        uint256 minBond_ = _MIN_BOND;
        uint256 currentTime = _time();
        assembly ("memory-safe") {
            // Scratch for the hash and precompile inputs: free memory, left unallocated (nothing runs after `return`).
            let m := mload(0x40)

            // The digest, as `_digest`: keccak256(0x1901 . domainSeparator . keccak256(typeHash . a)).
            mstore(m, typeHash) // word 0: the typehash
            calldatacopy(add(m, 0x20), a, 0xc0) // words 1-6: chainId, pool, confidence, horizonDays, issuedAt, expiresAt
            mstore(add(m, 0x22), keccak256(m, 0xe0)) // bytes 34-65: the struct hash
            mstore(m, shl(240, 0x1901)) // bytes 0-1: the EIP-191 version byte 0x19 and EIP-712's 0x01
            mstore(add(m, 0x02), domainSeparator) // bytes 2-33
            let digest := keccak256(m, 0x42) // 66 bytes

            // a.expiresAt, the sixth word of the static struct, read raw: no ABI validation that could revert.
            let expiresAt := calldataload(add(a, 0xa0))
            // `_dirtyBits(a)`, inlined and reusing `expiresAt`: non-zero exactly when a narrow field is dirty.
            // issuedAt | expiresAt | pool >> 96: at or above 2^64 exactly when one of the three is out of range.
            let dirty := or(or(calldataload(add(a, 0x80)), expiresAt), shr(96, calldataload(add(a, 0x20))))
            // horizonDays | (previous >> 32): at or above 2^32 exactly when horizonDays (uint32) or the previous is.
            dirty := or(calldataload(add(a, 0x60)), shr(32, dirty))
            // confidence | (previous >> 16), keeping the bits from 2^16 up.
            dirty := shr(16, or(calldataload(add(a, 0x40)), shr(16, dirty)))

            // The signer, or zero for anything but a 65-byte, low-s, v in {27, 28} signature over clean words that the
            // precompile accepts (the shape of OpenZeppelin's `ECDSA.tryRecover`, without its error enum).
            let s := calldataload(add(signature.offset, 0x20)) // bytes 32-63
            let v := byte(0, calldataload(add(signature.offset, 0x40))) // byte 64
            // Reading past a shorter signature is harmless: calldataload pads with zeros and the length check fails.
            // `v - 27 > 1` (wrapping below 27) is `v not in {27, 28}` in one comparison.
            mstore(0x00, 0) // the precompile's output word, zeroed so that no recovery reads as address(0)
            if and(eq(signature.length, 65), iszero(or(dirty, or(gt(s, _HALF_ORDER), gt(sub(v, 27), 1))))) {
                mstore(m, digest) // word 0: the message hash
                mstore(add(m, 0x20), v) // word 1: v (27 or 28)
                mstore(add(m, 0x40), calldataload(signature.offset)) // word 2: r (bytes 0-31)
                mstore(add(m, 0x60), s) // word 3: s
                // ecrecover (0x01) writes 32 bytes on success and nothing on failure (r or s zero or out of range,
                // no point on the curve).
                pop(staticcall(gas(), 0x01, m, 0x80, 0x00, 0x20))
            }
            attester := mload(0x00) // the recovered address, or zero

            // `_records[attester]`, hashed in scratch space (`attester` is the precompile's clean output, or zero).
            // Word 0x00 already holds `attester`, the mapping key.
            mstore(0x20, _records.slot)
            // One SLOAD for bond, withdrawableAt and the flags.
            let word := sload(keccak256(0x00, 0x40))
            // All operands are on the stack, so the three checks are combined without short-circuit jumps.
            valid := and(
                eq(and(shr(_FLAGS_SHIFT, word), _REGISTERED_UNBONDING_MASK), _REGISTERED_ONLY), // registered, not unbonding
                iszero(
                    or(
                        lt(and(word, 0xffffffffffffffffffffffff), minBond_), // bond (low 96 bits) < minBond
                        gt(currentTime, expiresAt) // currentTime > expiresAt
                    )
                )
            )
            // Only a backed attester that ever revoked pays for the lookup of `_revoked[attester][digest]` (`valid` is
            // 0 or 1, so the `and` keeps just the hasRevoked bit).
            if and(valid, shr(_HAS_REVOKED_SHIFT, word)) {
                // Scratch word 0x00 still holds `attester`, the outer key.
                mstore(0x20, _revoked.slot) // outer mapping's slot
                mstore(0x20, keccak256(0x00, 0x40)) // inner mapping's slot: keccak256(attester . _revoked.slot)
                mstore(0x00, digest) // inner key
                valid := iszero(sload(keccak256(0x00, 0x40))) // revoked -> not valid
            }

            // The ABI encoding of (bool, address), in scratch space: both words are clean (0/1 and a 160-bit value).
            mstore(0x00, valid)
            mstore(0x20, attester)
            return(0x00, 0x40)
        }
    }

    /// @inheritdoc IAttestationRegistry
    function hashAttestation(Attestation calldata a) external view returns (bytes32 digest) {
        if (_dirtyBits(a) != 0) revert MalformedAttestation();
        digest = _digest(a);
    }

    /// @inheritdoc IAttestationRegistry
    function getAttester(address attester) external view returns (AttesterInfo memory info) {
        Record storage record = _records[attester];
        info = AttesterInfo({
            registered: record.registered,
            unbonding: record.unbonding,
            hasRevoked: record.hasRevoked,
            bond: record.bond,
            withdrawableAt: record.withdrawableAt,
            beneficiary: record.beneficiary
        });
    }

    /// @inheritdoc IAttestationRegistry
    function isRevoked(address attester, bytes32 digest) external view returns (bool revoked) {
        revoked = _revoked[attester][digest];
    }

    /// @inheritdoc IAttestationRegistry
    function minBond() external view returns (uint256) {
        return _MIN_BOND;
    }

    /// @inheritdoc IAttestationRegistry
    function unbondingPeriod() external view returns (uint64) {
        return _UNBONDING_PERIOD;
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Internal
    // ----------------------------------------------------------------------------------------------------------------

    /// @dev The current time, in Unix seconds. Virtual so that test harnesses can pin it.
    function _time() internal view virtual returns (uint64) {
        return uint64(block.timestamp);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // Private
    // ----------------------------------------------------------------------------------------------------------------

    /// @dev `byOwner` marks the key removed for good (`removeAttester`); a self-deregistration does not.
    function _deregister(address attester, bool byOwner) private {
        Record storage record = _records[attester];
        if (!record.registered) revert NotRegistered(attester);

        record.registered = false;
        if (byOwner) record.removed = true;
        uint64 withdrawableAt;
        if (record.unbonding) withdrawableAt = record.withdrawableAt;
        else withdrawableAt = _startUnbonding(record);
        emit Deregistered(attester, msg.sender, withdrawableAt);
    }

    function _startUnbonding(Record storage record) private returns (uint64 withdrawableAt) {
        withdrawableAt = _time() + _UNBONDING_PERIOD;
        record.unbonding = true;
        record.withdrawableAt = withdrawableAt;
    }

    /// @dev `_revoked[msg.sender][digest] = true`, or `AlreadyRevoked`. The slot is hashed once and written as a whole
    /// word: it holds nothing but this bool, so storing 1 is the assignment without Solidity's second hash and
    /// read-modify-write (179 gas on `revoke`).
    function _revoke(bytes32 digest) private {
        uint256 slot;
        bool revoked;
        assembly ("memory-safe") {
            mstore(0x00, caller()) // outer key
            mstore(0x20, _revoked.slot) // outer mapping's slot
            mstore(0x20, keccak256(0x00, 0x40)) // inner mapping's slot: keccak256(msg.sender . _revoked.slot)
            mstore(0x00, digest) // inner key
            slot := keccak256(0x00, 0x40)
            revoked := sload(slot)
        }
        if (revoked) revert AlreadyRevoked(msg.sender, digest);
        assembly ("memory-safe") {
            sstore(slot, 1) // true
        }
        emit Revoked(msg.sender, digest);
    }

    function _send(address to, uint256 amount) private {
        // solhint-disable-next-line avoid-low-level-calls
        (bool success, ) = to.call{value: amount}("");
        if (!success) revert TransferFailed(to, amount);
    }

    /// @dev The EIP-712 digest `keccak256("\x19\x01" || domainSeparator || keccak256(abi.encode(TYPEHASH, a)))`, hashed
    /// straight from calldata: the struct is six static words, so one copy replaces `abi.encode`'s per-field
    /// validation and copies, and both hashes share one scratch area (same result as `_hashTypedDataV4`).
    function _digest(Attestation calldata a) private view returns (bytes32 digest) {
        bytes32 typeHash = ATTESTATION_TYPEHASH;
        bytes32 domainSeparator = _domainSeparatorV4();
        assembly ("memory-safe") {
            let m := mload(0x40) // free memory, left unallocated: it is only scratch for the hash inputs
            mstore(m, typeHash) // word 0: the typehash
            calldatacopy(add(m, 0x20), a, 0xc0) // words 1-6: chainId, pool, confidence, horizonDays, issuedAt, expiresAt
            let structHash := keccak256(m, 0xe0) // 7 words
            mstore(m, shl(240, 0x1901)) // bytes 0-1: the EIP-191 version byte 0x19 and EIP-712's 0x01
            mstore(add(m, 0x02), domainSeparator) // bytes 2-33
            mstore(add(m, 0x22), structHash) // bytes 34-65
            digest := keccak256(m, 0x42) // 66 bytes
        }
    }

    /// @dev Non-zero when a narrow field of `a` has bits above its type's width in calldata: such words decode to no
    /// valid `Attestation`. `chainId` is a full uint256 and needs no check. The fields are folded into one word from
    /// the widest down, each step shifting away the width the next field may use, so one `or` and one shift per
    /// field suffice.
    function _dirtyBits(Attestation calldata a) private pure returns (uint256 dirty) {
        assembly ("memory-safe") {
            // issuedAt | expiresAt | pool >> 96: at or above 2^64 exactly when one of the three is out of range.
            dirty := or(or(calldataload(add(a, 0x80)), calldataload(add(a, 0xa0))), shr(96, calldataload(add(a, 0x20))))
            // horizonDays | (previous >> 32): at or above 2^32 exactly when horizonDays or the previous is.
            dirty := or(calldataload(add(a, 0x60)), shr(32, dirty))
            // confidence | (previous >> 16): at or above 2^16 exactly when confidence or the previous is.
            dirty := or(calldataload(add(a, 0x40)), shr(16, dirty))
            // Keep only the bits at or above 2^16: zero for a well-formed attestation.
            dirty := shr(16, dirty)
        }
    }
}
