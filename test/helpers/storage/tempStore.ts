import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type OpenStoreParameters, type Store } from "../../../src/storage/openStore";

/** A real, migrated SQLite store in a fresh temp directory of its own. */
export interface TempStore {
  store: Store;
  /** The temp directory; a test may put other files in it, `cleanup` removes them all. */
  dir: string;
  /** The store's SQLite file, inside `dir`. */
  file: string;
  /** Closes the store, then removes `dir`. */
  cleanup: () => Promise<void>;
}

export interface TempStoreOptions {
  /** The temp directory's name prefix (names a leftover directory's test). Default `service-test-`. */
  prefix?: string;
  /** The SQLite file's name inside the directory. Default `service.sqlite`. */
  fileName?: string;
  /** Further {@link openStore} parameters (`busyTimeoutMs`, say). */
  open?: Omit<OpenStoreParameters, "file" | "databaseUrl">;
}

/**
 * Opens a SQLite store in a fresh temp directory. The tests that exercise opening a store (migration, modes, read-only
 * opens, crashes) open theirs by hand; every other test that needs a SQLite store takes it from here.
 *
 * @example
 * let temp: TempStore;
 * beforeEach(async () => (temp = await openTempStore({ prefix: "reorg-" })));
 * afterEach(() => temp.cleanup());
 */
export async function openTempStore(options: TempStoreOptions = {}): Promise<TempStore> {
  const dir = mkdtempSync(join(tmpdir(), options.prefix ?? "service-test-"));
  const file = join(dir, options.fileName ?? "service.sqlite");
  let store: Store;
  try {
    store = await openStore({ ...options.open, file });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    store,
    dir,
    file,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
