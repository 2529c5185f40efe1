import { expect } from "chai";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/**
 * Which top-level folders a folder's TypeScript may import by relative path. The service never depends on its tests
 * or benchmarks; the shared test support (`testkit/`: the throwaway PostgreSQL cluster, the query counter, the
 * synthetic pass) depends on the service only, so the tests and the benchmarks may both import it; the benchmarks
 * import no test code.
 */
const ALLOWED: Record<string, string[]> = {
  src: ["src"],
  testkit: ["testkit", "src"],
  bench: ["bench", "testkit", "src"],
};

const root = resolve(__dirname, "..", "..");

function typescriptFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return typescriptFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

/** The top-level folder a relative import of `from` lands in (or the file's own name, at the top level). */
function folderOf(from: string, specifier: string): string {
  return relative(root, resolve(dirname(from), specifier)).split(/[\\/]/)[0];
}

describe("top-level folders: import directions, and where the tests live", function () {
  for (const [folder, allowed] of Object.entries(ALLOWED)) {
    it(`${folder}/ imports only ${allowed.map((name) => `${name}/`).join(", ")}`, function () {
      const outside: string[] = [];
      for (const file of typescriptFiles(join(root, folder))) {
        const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
        for (const { fileName } of info.importedFiles) {
          if (!fileName.startsWith(".")) continue;
          const to = folderOf(file, fileName);
          if (!allowed.includes(to)) outside.push(`${relative(root, file)} -> ${fileName}`);
        }
      }
      expect(outside).to.deep.equal([]);
    });
  }

  it("keeps every test under test/: src/ holds no test file, so the compiled build (dist/) has none", function () {
    const tests = typescriptFiles(join(root, "src")).filter((file) => /\.(test|gas)\.ts$/.test(file));
    expect(tests.map((file) => relative(root, file))).to.deep.equal([]);
  });
});
