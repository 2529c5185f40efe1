import { expect } from "chai";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/**
 * The drawn layers of `src/` (README "Architecture"), lowest first. A folder may import its own files and any folder
 * of a lower rank, never one of the same or a higher rank: so no folder imports a folder above it, and no circle can
 * run between folders. `index` is the public API (`src/index.ts`).
 */
const LAYERS: Record<string, number> = {
  errors: 0,
  lib: 1,
  abi: 1,
  // Bounded reads of HTTP answers, shared by the feeds, the CLI and the remote signer.
  net: 1,
  // The Prometheus series: counted by the pass runner (ingest), the leader election (main) and the server (service).
  metrics: 1,
  model: 2,
  config: 2,
  actions: 2,
  storage: 3,
  chain: 3,
  attest: 4,
  ingest: 5,
  read: 5,
  // Sign-In with Ethereum (nonces, sessions, the EOA-only check) sits beside read: it uses storage and lib, and the
  // service calls it.
  auth: 5,
  // Above read, below service: a write, and an alert subscription limited to one pool, resolve the pool they name
  // with read's resolvePool (same-rank imports are refused); the service, the pages and main call them.
  alerts: 5.5,
  write: 5.5,
  // The agent interface and the dapp's pages are adapters over read (and auth, alerts, write); the service mounts
  // them on its server (`POST /mcp`, `/app/`) and the CLI serves MCP over stdio.
  mcp: 5.8,
  web: 5.8,
  service: 6,
  demo: 7,
  main: 8,
  cli: 8,
  index: 9,
};

/** Functions may not be longer than this (outside tests and the demo's scripted scenarios). */
const MAX_FUNCTION_LINES = 120;
/** Files may not be longer than this: a longer one holds more than one concept (issue 31). */
const MAX_FILE_LINES = 450;
/** The demo's scripted scenarios: a day of the simulation reads best as one script. */
const SCRIPTED_SCENARIOS = new Set<string>(["src/demo/simulateDay.ts"]);

const root = resolve(__dirname, "..", "..");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".test.ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

/** The layer of a file under `src/`: its first folder, or `index` for `src/index.ts`. */
function layerOf(file: string): string {
  const [first, second] = relative(join(root, "src"), file).split(/[\\/]/);
  return second === undefined ? first.replace(/\.ts$/, "") : first;
}

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, "index.ts"), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${relative(root, from)} imports ${specifier}, which does not resolve to a file`);
}

const files = sourceFiles(join(root, "src"));
/** Every relative import of every source file (static, `import type`, re-exports and dynamic `import()`). */
const imports = new Map<string, string[]>(
  files.map((file) => {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = info.importedFiles
      .map((imported) => resolveImport(file, imported.fileName))
      .filter((target): target is string => target !== null && !target.endsWith(".test.ts"));
    return [file, targets];
  }),
);

/**
 * The storage schema's files: `src/storage/schema.ts` and the table files it takes its tables from (what it imports
 * under `src/storage`, transitively), found from its imports so that a new table file is covered too.
 */
const storageFolder = join(root, "src", "storage");
const schemaFiles = new Set<string>();
for (const pending = [join(storageFolder, "schema.ts")]; pending.length > 0;) {
  const file = pending.pop()!;
  if (schemaFiles.has(file)) continue;
  schemaFiles.add(file);
  pending.push(...(imports.get(file) ?? []).filter((target) => dirname(target) === storageFolder));
}

/** The one export of the schema files a module outside `src/storage` may import: the Kysely handle's type. */
const ALLOWED_SCHEMA_IMPORTS = new Set(["Database"]);

/**
 * What a file imports from the schema files, beyond {@link ALLOWED_SCHEMA_IMPORTS}: named imports and re-exports,
 * `import * as`, default imports, `export *` and `import("…").Name` types, each as `<file> imports <name> from <schema
 * file>`.
 */
function schemaRowImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const note = (specifier: string, names: string[]) => {
    const target = resolveImport(file, specifier);
    if (target === null || !schemaFiles.has(target)) return;
    for (const name of names.filter((n) => !ALLOWED_SCHEMA_IMPORTS.has(n))) {
      found.push(`${relative(root, file)} imports ${name} from ${relative(root, target)}`);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const names: string[] = [];
      if (clause?.name) names.push("default");
      if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings)) names.push("* (namespace)");
      if (clause?.namedBindings && ts.isNamedImports(clause.namedBindings)) {
        for (const element of clause.namedBindings.elements) names.push((element.propertyName ?? element.name).text);
      }
      note(node.moduleSpecifier.text, names);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names =
        node.exportClause && ts.isNamedExports(node.exportClause)
          ? node.exportClause.elements.map((element) => (element.propertyName ?? element.name).text)
          : ["* (re-export)"];
      note(node.moduleSpecifier.text, names);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const qualifier = node.qualifier ? node.qualifier.getText(source).split(".")[0] : "* (namespace)";
      note(node.argument.literal.text, [qualifier]);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      note(node.arguments[0].text, ["* (dynamic import)"]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("architecture of src/", function () {
  it("puts every source folder on a drawn layer", function () {
    const unknown = [...new Set(files.map(layerOf))].filter((layer) => !(layer in LAYERS));
    expect(unknown, "folders missing from LAYERS (and from the README's diagram)").to.deep.equal([]);
  });

  it("never imports a folder of the same or a higher layer", function () {
    const upward: string[] = [];
    for (const [file, targets] of imports) {
      const from = layerOf(file);
      for (const target of targets) {
        const to = layerOf(target);
        if (to !== from && LAYERS[to] >= LAYERS[from]) {
          upward.push(`${relative(root, file)} (${from}) -> ${relative(root, target)} (${to})`);
        }
      }
    }
    expect(upward).to.deep.equal([]);
  });

  it("has no import circle between files (type-only imports included)", function () {
    // Tarjan's strongly connected components: every component of more than one file is a circle.
    let counter = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (file: string): void => {
      index.set(file, counter);
      low.set(file, counter);
      counter++;
      stack.push(file);
      onStack.add(file);
      for (const target of imports.get(file) ?? []) {
        if (!index.has(target)) {
          visit(target);
          low.set(file, Math.min(low.get(file)!, low.get(target)!));
        } else if (onStack.has(target)) {
          low.set(file, Math.min(low.get(file)!, index.get(target)!));
        }
      }
      if (low.get(file) === index.get(file)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(relative(root, member));
        } while (member !== file);
        if (component.length > 1 || (imports.get(file) ?? []).includes(file)) circles.push(component.sort());
      }
    };
    for (const file of files) if (!index.has(file)) visit(file);
    expect(circles).to.deep.equal([]);
  });

  it("imports no table row type of the storage schema outside src/storage (Database only)", function () {
    expect(schemaFiles.size, "schema.ts and its table files").to.be.greaterThan(1);
    const outside = files.filter((file) => dirname(file) !== storageFolder && !file.startsWith(storageFolder + sep));
    expect(
      outside.flatMap(schemaRowImports),
      "Rows stop at src/storage (issue 31): outside it, code builds and takes the domain records declared in " +
        "src/storage's modules (PoolRecord, StoredAttestation, NewAttestation, ObservedCampaign, DexVolumeRecord, " +
        "TokenPriceRecord, …), which storage converts to and from rows once; only Database, the Kysely handle's " +
        "type, may be imported from schema.ts and its table files",
    ).to.deep.equal([]);
  });

  it(`has no function longer than ${MAX_FUNCTION_LINES} lines outside the demo's scripted scenarios`, function () {
    const long: string[] = [];
    for (const file of files) {
      const name = relative(root, file).split("\\").join("/");
      if (SCRIPTED_SCENARIOS.has(name)) continue;
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && "body" in node && node.body) {
          const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
          const end = source.getLineAndCharacterOfPosition(node.end).line;
          if (end - start + 1 > MAX_FUNCTION_LINES) {
            const label = node.name ? node.name.getText(source) : "<anonymous>";
            long.push(`${name}:${start + 1} ${label} (${end - start + 1} lines)`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).to.deep.equal([]);
  });

  it(`has no file longer than ${MAX_FILE_LINES} lines`, function () {
    const long = files.flatMap((file) => {
      const lines = readFileSync(file, "utf8").split("\n").length;
      return lines > MAX_FILE_LINES ? [`${relative(root, file)} (${lines} lines)`] : [];
    });
    expect(long).to.deep.equal([]);
  });
});
