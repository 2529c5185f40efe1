/**
 * Exit statuses of `attest verify`, single and `--batch` (64, a usage error, is `EXIT_USAGE` in `src/cli/types.ts`).
 * A batch exits with the worst of its lines: 1 if any line is not authentic or not an attestation, else 2 if any is
 * expired, else 0.
 */

/** Authentic and fresh (every line, for a batch). */
export const EXIT_VALID = 0;
/**
 * Not authentic, or not a well-formed attestation, or unreadable input (for a batch: at least one such line, an empty
 * input, or input that could not be read to the end).
 */
export const EXIT_INVALID = 1;
/** Authentic but expired (for a batch: every line authentic, at least one expired). */
export const EXIT_EXPIRED = 2;
