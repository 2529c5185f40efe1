/**
 * Child process for the grading crash test: grades the claims of a SQLite file, batch after batch (`gradeClaims`),
 * printing `batch-start` before each and `graded <n>` after, until nothing is left or it is killed. Arguments: the
 * file, the clock (Unix seconds). Run with `node -r ts-node/register/transpile-only test/helpers/reliability/gradeChild.ts`.
 */
import { gradeClaims } from "../../../src/attest/gradeClaims";
import { openStore } from "../../../src/storage/openStore";

async function main() {
  const [file, now] = process.argv.slice(2);
  const store = await openStore({ file });
  for (;;) {
    process.stdout.write("batch-start\n");
    const counts = await gradeClaims(store.db, { now: Number(now) });
    const graded = counts.held + counts.failed + counts.void;
    process.stdout.write(`graded ${graded}\n`);
    if (graded === 0) break;
  }
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
