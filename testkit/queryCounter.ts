import type { DatabaseConnection, QueryResult } from "kysely";
import type { Store } from "../src/storage/openStore";

/** Counts the statements a store sends to its database: each one is a round trip on PostgreSQL. */
export interface QueryCounter {
  /** Statements sent since the last {@link QueryCounter.reset}, `begin` and `commit` included. */
  count(): number;
  /** The SQL of those statements, in order (for a failing assertion's message). */
  statements(): string[];
  reset(): void;
}

/**
 * Counts every statement `store.db` executes from now on, on either backend, by wrapping the connections its executor
 * hands out: plain queries, the queries of a transaction and the transaction's own `begin` / `commit` / `rollback`
 * (the driver sends those through the same connection). Install it once per store, before the work to count.
 *
 * @example
 * const counter = countQueries(store);
 * await writePass(store.db, parameters);
 * console.log(counter.count());
 */
export function countQueries(store: Store): QueryCounter {
  const executor = store.db.getExecutor();
  const sent: string[] = [];
  const original = executor.provideConnection.bind(executor);
  const wrap = (connection: DatabaseConnection): DatabaseConnection => ({
    executeQuery<R>(compiled: Parameters<DatabaseConnection["executeQuery"]>[0]): Promise<QueryResult<R>> {
      sent.push(compiled.sql);
      return connection.executeQuery<R>(compiled);
    },
    streamQuery<R>(compiled: Parameters<DatabaseConnection["streamQuery"]>[0], chunkSize?: number) {
      sent.push(compiled.sql);
      return connection.streamQuery<R>(compiled, chunkSize);
    },
  });
  // The executor is the one object every query and every transaction of this Kysely instance takes its connection
  // from (a transaction keeps the wrapped connection for its queries and its begin/commit).
  (executor as { provideConnection: typeof executor.provideConnection }).provideConnection = (consumer) =>
    original((connection) => consumer(wrap(connection)));
  return {
    count: () => sent.length,
    statements: () => [...sent],
    reset: () => void sent.splice(0),
  };
}
