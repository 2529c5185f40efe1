import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../../../src/storage/openStore";
import { freshPostgresUrl, sharedPostgres } from "../../../testkit/postgres";

/**
 * Opens a fresh, empty, migrated store. A suite may close it itself (say in `afterEach`); whatever is still open is
 * closed, and its files removed, after the suite.
 */
export type OpenFresh = () => Promise<Store>;

/**
 * Runs `suite` once per backend: SQLite (a temp file per store) and PostgreSQL (the run's shared throwaway local
 * cluster, a fresh database per store). The readers go through one query layer, so the same assertions must hold on both.
 */
export function forEachBackend(suite: (openFresh: OpenFresh) => void): void {
  describe("SQLite", function () {
    const opened: { store: Store; dir: string }[] = [];
    after(async function () {
      for (const { store, dir } of opened) {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
    suite(async () => {
      const dir = mkdtempSync(join(tmpdir(), "store-"));
      const store = closeOnce(await openStore({ file: join(dir, "service.sqlite") }));
      opened.push({ store, dir });
      return store;
    });
  });

  describe("PostgreSQL (throwaway local cluster)", function () {
    const opened: Store[] = [];
    before(async function () {
      this.timeout(60_000);
      await sharedPostgres();
    });
    after(async function () {
      for (const store of opened) await store.close();
    });
    suite(async () => {
      const store = closeOnce(await openStore({ databaseUrl: await freshPostgresUrl() }));
      opened.push(store);
      return store;
    });
  });
}

/** The store with a `close` that acts once, so the suite and the cleanup after it may both call it. */
function closeOnce(store: Store): Store {
  let closing: Promise<void> | null = null;
  return { ...store, close: () => (closing ??= store.close()) };
}
