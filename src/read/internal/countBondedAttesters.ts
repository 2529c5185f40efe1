import type { Kysely } from "kysely";
import { listActivityByKindPrefix } from "../../storage/activity";
import { hasLogCursors } from "../../storage/logCursors";
import type { Database } from "../../storage/schema";

/** The registry's events as the activity log names them: `registry.<Event>` (any case, `_`/`-` ignored). */
const REGISTRY_PREFIX = "registry.";

/**
 * How many attesters are bonded now, replayed from the registry's events in the activity log (oldest first):
 * `Registered` and `BondAdded` bond an attester (with the bond they report, when they report one), `Slashed` sets the
 * bond left, `UnbondRequested` ("backs nothing from this block on"), `Deregistered` and `Withdrawn` end it. An
 * attester counts when its last state is bonded with a bond above zero. The attester is `data.attester`; the bond is
 * `data.bond` (wei, decimal text or number).
 *
 * @returns the count, or null when the registry's log has never been read (no `registry` log cursor and no event):
 * the store cannot tell, which is not zero.
 */
export async function countBondedAttesters(db: Kysely<Database>): Promise<number | null> {
  const [events, read] = await Promise.all([
    listActivityByKindPrefix(db, REGISTRY_PREFIX),
    hasLogCursors(db, "registry"),
  ]);
  if (events.length === 0 && !read) return null;
  const bonds = new Map<string, bigint>();
  for (const { kind, data } of events) {
    const name = kind.slice(REGISTRY_PREFIX.length).replace(/[_-]/g, "").toLowerCase();
    const attester = typeof data.attester === "string" ? data.attester.toLowerCase() : null;
    if (attester === null) continue;
    const bond = toWei(data.bond);
    if (name === "registered" || name === "bondadded" || name === "slashed") {
      bonds.set(attester, bond ?? (name === "slashed" ? 0n : 1n));
    } else if (name === "unbondrequested" || name === "deregistered" || name === "withdrawn") {
      bonds.set(attester, 0n);
    }
  }
  return [...bonds.values()].filter((bond) => bond > 0n).length;
}

function toWei(value: unknown): bigint | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === "string" && /^[0-9]{1,78}$/.test(value)) return BigInt(value);
  return null;
}
