import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";

/** The data directory is 0700, the database files (and the keys beside them) 0600 (docs/security.md#files). */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and any missing parent) 0700 and tightens an existing one that others may read, when this user owns
 * it. A shared directory (sticky, such as /tmp) or one owned by someone else is left as it is and reported.
 *
 * @returns what was done, for one log line: `created`, `tightened` (with the old mode), `kept`, or `left` (why).
 */
export function ensurePrivateDir(
  dir: string,
): { action: "created" | "kept" } | { action: "tightened" | "left"; was: string } {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    chmodSync(dir, PRIVATE_DIR_MODE); // whatever the umask
    return { action: "created" };
  }
  const stat = statSync(dir);
  if ((stat.mode & 0o077) === 0) return { action: "kept" };
  const was = (stat.mode & 0o7777).toString(8).padStart(4, "0");
  const owned = typeof process.getuid !== "function" || stat.uid === process.getuid();
  if (!owned || (stat.mode & 0o1000) !== 0) return { action: "left", was };
  chmodSync(dir, PRIVATE_DIR_MODE);
  return { action: "tightened", was };
}

/** Tightens `file` to 0600 when it exists and group or others have any permission on it. Returns whether it did. */
export function tightenFile(file: string): boolean {
  if (!existsSync(file)) return false;
  if ((statSync(file).mode & 0o077) === 0) return false;
  chmodSync(file, PRIVATE_FILE_MODE);
  return true;
}

/**
 * A SQLite database's files 0600: creates the main file empty (a valid empty database) with that mode before SQLite
 * opens it, so that SQLite, which gives the `-wal` and `-shm` files the main file's mode, creates them 0600 too; and
 * tightens any of the three that exists with a looser mode (a store created before this rule).
 */
export function makeSqliteFilesPrivate(file: string, when: "before-open" | "after-open"): string[] {
  if (when === "before-open" && !existsSync(file)) closeSync(openSync(file, "a", PRIVATE_FILE_MODE));
  return [file, `${file}-wal`, `${file}-shm`].filter((path) => tightenFile(path));
}
