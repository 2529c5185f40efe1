import { MAX_COMPARED_POOLS, NoPoolsError, RepeatedPoolError, TooManyPoolsError } from "../../errors/market";
import { formatPoolId, parsePoolId } from "@attestation-registry/sdk";

/**
 * The checks that need no store: 1 to 4 ids, each well-formed, none repeated as written (any case). A route runs
 * them before its response cache, so a cached error never quotes another caller's spelling.
 */
export function checkPoolList(ids: readonly string[], field = "pools"): void {
  if (ids.length === 0) throw new NoPoolsError({ field });
  if (ids.length > MAX_COMPARED_POOLS) throw new TooManyPoolsError({ count: ids.length, field });
  const seen = new Set<string>();
  for (const id of ids) {
    const ref = parsePoolId({ id, field });
    const key = `${ref.chainId ?? ""}:${ref.address}`;
    if (seen.has(key)) {
      const pool = ref.chainId === null ? ref.address : formatPoolId({ chainId: ref.chainId, address: ref.address });
      throw new RepeatedPoolError({ pool, field });
    }
    seen.add(key);
  }
}
