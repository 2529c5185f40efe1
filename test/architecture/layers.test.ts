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
  // `@attestation-registry/sdk/internal`: the SDK's modules the service uses beyond the public API (src/internal.ts).
  internal: 9,
};

/**
 * `@attestation-registry/sdk` (packages/sdk) is built from src/: its modules are the import closure of its entry
 * points (packages/sdk/scripts/build.mjs): all of lib/, actions/ and abi/, the errors they throw (errors/base,
 * attestation, pool, registry, rpc, utils, verifyBackend), errors/core.ts (the `/errors` entry), index.ts and
 * internal.ts. Inside, they keep the ranks above. The service (every other file of src/) imports them only by the
 * package's name, never by a relative path, so that the compiled service loads the one built copy
 * (packages/sdk/dist): one `BaseError`, one verify backend. The package sits beneath every folder of the service,
 * errors included (the service's errors extend its `BaseError`).
 */
const SDK_NAME = "@attestation-registry/sdk";
const SDK_ENTRIES = ["index.ts", "abi/attestationRegistryAbi.ts", "errors/core.ts", "internal.ts"];
/** The folders whose every file is in the SDK. */
const SDK_FOLDERS = ["lib", "actions", "abi"];
/** Where an SDK module may live: the SDK's folders, the errors, the two entry files. */
const SDK_PLACES = new Set([...SDK_FOLDERS, "errors", "index", "internal"]);

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

/** Every import of the SDK by its name (the package or one of its subpaths), by file. */
const namedSdkImports = new Map<string, string[]>(
  files.map((file) => {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const named = info.importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name === SDK_NAME || name.startsWith(`${SDK_NAME}/`));
    return [file, named];
  }),
);

/** The SDK's modules: the import closure of its entry points. */
const sdkModules = new Set<string>();
const reach = (file: string): void => {
  if (sdkModules.has(file)) return;
  sdkModules.add(file);
  for (const target of imports.get(file) ?? []) reach(target);
};
for (const entry of SDK_ENTRIES) reach(join(root, "src", entry));

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

  it(`keeps ${SDK_NAME}'s modules apart: all of ${SDK_FOLDERS.join(", ")}, their errors and its entry files`, function () {
    // Every file of lib/, actions/ and abi/ is in the SDK (a service-only module lives elsewhere, e.g. chain/).
    const outside = files.filter((file) => SDK_FOLDERS.includes(layerOf(file)) && !sdkModules.has(file));
    expect(
      outside.map((file) => relative(root, file)),
      "files of the SDK's folders the SDK does not reach",
    ).to.deep.equal([]);
    // The SDK reaches no folder of the service.
    const stray = [...sdkModules].filter((file) => !SDK_PLACES.has(layerOf(file)));
    expect(
      stray.map((file) => relative(root, file)),
      "service modules inside the SDK",
    ).to.deep.equal([]);
    // The SDK never imports itself by its name (it is built from these files).
    const selfNamed = [...sdkModules].filter((file) => (namedSdkImports.get(file) ?? []).length > 0);
    expect(selfNamed.map((file) => relative(root, file))).to.deep.equal([]);
  });

  it(`has the service import the SDK by its name (${SDK_NAME}), never by a relative path`, function () {
    const relativeImports: string[] = [];
    for (const [file, targets] of imports) {
      if (sdkModules.has(file)) continue;
      for (const target of targets)
        if (sdkModules.has(target)) relativeImports.push(`${relative(root, file)} -> ${relative(root, target)}`);
    }
    expect(relativeImports, `import these from "${SDK_NAME}" (or its /errors, /internal)`).to.deep.equal([]);
    // The name resolves to the same entry points the SDK is built from (tsconfig.json "paths").
    const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile).config as {
      compilerOptions: { paths: Record<string, string[]> };
    };
    const paths = Object.fromEntries(
      Object.entries(config.compilerOptions.paths).map(([name, [target]]) => [name, target.replace(/^\.\//, "")]),
    );
    expect(paths).to.deep.equal({
      [SDK_NAME]: "src/index.ts",
      [`${SDK_NAME}/abi`]: "src/abi/attestationRegistryAbi.ts",
      [`${SDK_NAME}/errors`]: "src/errors/core.ts",
      [`${SDK_NAME}/internal`]: "src/internal.ts",
    });
    const used = new Set([...namedSdkImports.values()].flat());
    for (const name of used) expect(paths, `${name} has no "paths" entry`).to.have.property(name);
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
