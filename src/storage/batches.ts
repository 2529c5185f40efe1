import { sql, type RawBuilder } from "kysely";

/**
 * Most bound parameters one statement carries: under SQLite's limit (32,766 since 3.32) and PostgreSQL's (65,535),
 * with room for a statement's own parameters beside its rows.
 */
export const MAX_STATEMENT_PARAMETERS = 30_000;

/**
 * Splits `items` into consecutive chunks small enough for one statement, when each item binds `parametersPerItem`
 * parameters: a batch costs one round trip per chunk, never one per item.
 *
 * @example
 * chunksOf(rows, 7); // rows in chunks of at most 4,285
 */
export function chunksOf<T>(items: readonly T[], parametersPerItem: number): T[][] {
  if (!Number.isSafeInteger(parametersPerItem) || parametersPerItem < 1) {
    throw new RangeError(`chunksOf: parametersPerItem must be a positive integer, got ${parametersPerItem}`);
  }
  const size = Math.max(1, Math.floor(MAX_STATEMENT_PARAMETERS / parametersPerItem));
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/**
 * Rows of a batched read by pool, for answers in the order the pools were given: `get(chainId, address)` is the
 * pool's rows (none: an empty list).
 */
export function rowsByPool<R extends { chain_id: number; address: string }>(rows: readonly R[]) {
  const map = new Map<string, R[]>();
  for (const row of rows) {
    const key = `${Number(row.chain_id)}:${row.address}`;
    const list = map.get(key);
    if (list) list.push(row);
    else map.set(key, [row]);
  }
  return { get: (chainId: number, address: string): R[] => map.get(`${chainId}:${address.toLowerCase()}`) ?? [] };
}

/**
 * The addresses of each chain among `pools`, lower case and without repeats: a batched read asks one chain at a time
 * (`chain_id = ? and address in (…)`), which the tables' `(chain_id, address, …)` keys answer.
 */
export function addressesByChain(pools: readonly { chainId: number; address: string }[]): Map<number, string[]> {
  const byChain = new Map<number, Set<string>>();
  for (const { chainId, address } of pools) {
    const set = byChain.get(chainId) ?? new Set<string>();
    set.add(address.toLowerCase());
    byChain.set(chainId, set);
  }
  return new Map([...byChain].map(([chainId, set]) => [chainId, [...set]]));
}

/** `SET column = excluded.column` for each column: an upsert's update takes the values its own row brought. */
export function excludedOf(columns: readonly string[]): Record<string, RawBuilder<unknown>> {
  return Object.fromEntries(columns.map((column) => [column, sql.ref(`excluded.${column}`)]));
}

/**
 * Splits `items` into rounds in which no key repeats, keeping their order (an item's repeat goes to a later round):
 * one multi-row upsert cannot touch a row twice, and rounds applied in turn do what one statement per item did.
 */
export function roundsByKey<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const rounds: T[][] = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    const index = seen.get(k) ?? 0;
    (rounds[index] ??= []).push(item);
    seen.set(k, index + 1);
  }
  return rounds;
}
