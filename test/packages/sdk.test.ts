import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import rootManifest from "../../package.json";
import sdkManifest from "../../packages/sdk/package.json";
import { measureSdkVerifyBundle, SDK_VERIFY_BUNDLE_BUDGET_BYTES } from "../../testkit/sdkBundleSize";
import v1 from "../vectors/attestation-v1.json";
import v2 from "../vectors/attestation-v2.json";
import { exec, installedPackages, npm, pack, type Packed, ROOT } from "./npm";

/**
 * @attestation-registry/sdk as an integrator gets it: `npm pack` (its prepack builds it from src/), then the tarball
 * installed from the npm cache (`--prefer-offline`; `npm ci` filled it) into fresh projects this test makes: an ES
 * module project (with the optional `secp256k1` beside it), a CommonJS one (the SDK alone), both verifying the
 * conformance vectors, and TypeScript type-checking a consumer in each.
 */
describe("packages/sdk: the tarball, installed in fresh projects", function () {
  this.timeout(240_000);
  let dir: string;
  let packed: Packed;
  let esm: string;
  let cjs: string;

  /** A consumer of the vectors; `imports` is its first line (ESM `import` or CommonJS `require`). */
  const consumer = (imports: string, readVectors: string) => `${imports}
${readVectors}
const v1Results = v1.cases.map((c) => {
  try {
    const r = verifyAttestation({ attestation: c.attestation, address: c.expectedAttester, time: new Date(c.now * 1000) });
    return { id: c.id, valid: r.valid, expired: r.expired, canonical: r.canonical, recovered: r.attester?.toLowerCase() ?? null };
  } catch (error) {
    return { id: c.id, threw: error instanceof BaseError ? error.code : String(error) };
  }
});
const v2Results = v2.cases.map((c) => {
  const r = verifyTypedAttestation({ attestation: c.attestation, registry: c.registry, address: v2.attester.address, signature: c.signature, time: new Date(0) });
  return { id: c.id, valid: r.valid, digest: r.digest };
});
console.log(JSON.stringify({ v1: v1Results, v2: v2Results, backend: getVerifyBackend(), abiEntries: attestationRegistryAbi.length }));
`;

  type ConsumerOutput = {
    v1: {
      id: string;
      valid?: boolean;
      expired?: boolean;
      canonical?: string | null;
      recovered?: string | null;
      threw?: string;
    }[];
    v2: { id: string; valid: boolean; digest: string }[];
    backend: { backend: string; setting: string; nativeError: string | null };
    abiEntries: number;
  };

  /** The results every consumer must print, from the vectors. */
  function expectConformance(output: ConsumerOutput) {
    expect(output.v1.map((r) => r.id)).to.deep.equal(v1.cases.map((c) => c.id));
    for (const [index, c] of v1.cases.entries()) {
      const r = output.v1[index];
      if (c.expected.canonical === null) {
        expect(r.threw, c.id)
          .to.be.a("string")
          .that.matches(/^[A-Z_]+$/);
        continue;
      }
      expect(r.valid, `${c.id} valid`).to.equal(c.expected.valid);
      expect(r.canonical, `${c.id} canonical`).to.equal(c.expected.canonical);
      expect(r.recovered, `${c.id} recovered`).to.equal(c.expected.recovered);
      if (c.expected.valid) expect(r.expired, `${c.id} expired`).to.equal(c.expected.expired);
    }
    expect(output.v2).to.deep.equal(v2.cases.map((c) => ({ id: c.id, valid: true, digest: c.digest })));
    expect(output.abiEntries).to.be.greaterThan(10);
  }

  /** A fresh project holding the vectors, with the SDK's tarball (and `extra` packages) installed. */
  async function project(name: string, type: "module" | "commonjs", extra: string[]): Promise<string> {
    const path = join(dir, name);
    mkdirSync(path);
    writeFileSync(join(path, "package.json"), JSON.stringify({ name, version: "1.0.0", private: true, type }));
    copyFileSync(join(ROOT, "test", "vectors", "attestation-v1.json"), join(path, "attestation-v1.json"));
    copyFileSync(join(ROOT, "test", "vectors", "attestation-v2.json"), join(path, "attestation-v2.json"));
    await npm(
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", packed.tarball, ...extra],
      path,
    );
    return path;
  }

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), "sdk-package-"));
    packed = await pack(sdkManifest.name, dir);
    [esm, cjs] = await Promise.all([
      project("esm-consumer", "module", [`secp256k1@${rootManifest.dependencies.secp256k1}`]),
      project("cjs-consumer", "commonjs", []),
    ]);
  });

  after(function () {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ships its builds, declarations, README and CHANGELOG, and nothing else (no tests, fixtures or source maps)", function () {
    const paths = packed.files.map((file) => file.path);
    for (const path of paths)
      expect(path, path).to.match(
        /^(package\.json|README\.md|CHANGELOG\.md|LICENSE|dist\/cjs\/.+\.(js|d\.ts)|dist\/esm\/.+\.mjs)$/,
      );
    // Only the library's folders of src/: no service module (storage, service, cli…) is reached by the entry points.
    for (const path of paths.filter((p) => p.startsWith("dist/")))
      expect(path, path).to.match(/^dist\/(cjs|esm)\/(index\.|internal\.|abi\/|lib\/|actions\/|errors\/)/);
    expect(
      paths.filter((path) => /(^|\/)(tests?|fixtures?|vectors)(\/|$)|\.(map|test\.[cm]?js)$/.test(path)),
    ).to.deep.equal([]);
    // Every target of the exports map is in the tarball.
    const targets = Object.values(sdkManifest.exports).flatMap((target) =>
      typeof target === "string" ? [target] : Object.values(target),
    );
    for (const target of targets) expect(paths, target).to.include(target.replace(/^\.\//, ""));
    console.log(
      `      ${packed.tarball.split("/").pop()}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${paths.length} files`,
    );
  });

  it("declares what integrators rely on: version, exports, sideEffects, publishConfig", function () {
    expect(sdkManifest.version).to.equal("0.1.0");
    expect(sdkManifest.sideEffects).to.equal(false);
    expect(sdkManifest.publishConfig).to.deep.equal({ access: "public", provenance: true });
    expect(Object.keys(sdkManifest.dependencies).sort()).to.deep.equal(["@noble/curves", "viem"]);
    // The native backend is optional: a peer the integrator may add, never installed by the SDK itself.
    expect(sdkManifest.peerDependenciesMeta.secp256k1.optional).to.equal(true);
    // The same versions as the service's, so the repository's lock file holds one copy of each.
    for (const [name, version] of Object.entries(sdkManifest.dependencies))
      expect(version, name).to.equal(rootManifest.dependencies[name as keyof typeof rootManifest.dependencies]);
  });

  it("an ES module project verifies the vectors, with the native backend when secp256k1 is installed", async function () {
    const file = join(esm, "verify.mjs");
    writeFileSync(
      file,
      consumer(
        `import { BaseError, getVerifyBackend, verifyAttestation, verifyTypedAttestation } from "@attestation-registry/sdk";
import { attestationRegistryAbi } from "@attestation-registry/sdk/abi";
import { readFileSync } from "node:fs";`,
        `const v1 = JSON.parse(readFileSync(new URL("./attestation-v1.json", import.meta.url), "utf8"));
const v2 = JSON.parse(readFileSync(new URL("./attestation-v2.json", import.meta.url), "utf8"));`,
      ),
    );
    const output = JSON.parse((await exec(process.execPath, [file], esm)).stdout) as ConsumerOutput;
    expectConformance(output);
    expect(output.backend).to.deep.equal({ backend: "native", setting: "auto", nativeError: null });
  });

  it("a CommonJS project verifies the vectors, in pure JS without secp256k1 (never required)", async function () {
    const file = join(cjs, "verify.cjs");
    writeFileSync(
      file,
      consumer(
        `const { BaseError, getVerifyBackend, verifyAttestation, verifyTypedAttestation } = require("@attestation-registry/sdk");
const { attestationRegistryAbi } = require("@attestation-registry/sdk/abi");`,
        `const v1 = require("./attestation-v1.json");
const v2 = require("./attestation-v2.json");`,
      ),
    );
    const output = JSON.parse((await exec(process.execPath, [file], cjs)).stdout) as ConsumerOutput;
    expectConformance(output);
    expect(output.backend.backend).to.equal("js");
    expect(output.backend.nativeError).to.match(/Cannot find module 'secp256k1\/bindings'/);
  });

  it("installs none of the service's dependencies: the tree is viem's and @noble/curves'", async function () {
    const installed = await installedPackages(cjs);
    const names = installed.map((entry) => entry.slice(0, entry.lastIndexOf("@")));
    const sdkOwn = new Set(["@attestation-registry/sdk", ...Object.keys(sdkManifest.dependencies)]);
    const service = [...Object.keys(rootManifest.dependencies), ...Object.keys(rootManifest.devDependencies)].filter(
      (name) => !sdkOwn.has(name),
    );
    expect(names.filter((name) => service.includes(name))).to.deep.equal([]);
    for (const name of ["fastify", "pg", "better-sqlite3", "hardhat", "kysely", "secp256k1", "esbuild", "typescript"])
      expect(names, name).not.to.include(name);
    console.log(
      `      ${installed.length - 1} packages besides the SDK: ${installed.filter((e) => !e.startsWith("@attestation-registry/")).join(", ")}`,
    );
  });

  it("type-checks a TypeScript consumer against the declarations (NodeNext ESM, and bundler resolution; no @types/node)", async function () {
    const source = `import { type Attestation, BaseError, verifyAttestation, type VerifyAttestationReturnType, getAttestationTypedData } from "@attestation-registry/sdk";
import { attestationRegistryAbi } from "@attestation-registry/sdk/abi";
const attestation: Attestation = { chainId: 1, confidence: 0.85, expiry: 1767225600, horizon: 30, issuedAt: 1764547200, pool: "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640", signature: "0x00" };
const result: VerifyAttestationReturnType = verifyAttestation({ attestation, address: "0x0BaeFe15c43Ba14D2eB6dabee31a0170A6FF214F" });
const valid: boolean = result.valid;
const typed = getAttestationTypedData({ attestation, registry: { chainId: 8453, address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" } });
const primaryType: "Attestation" = typed.primaryType;
const firstEntry: string = attestationRegistryAbi[0].type;
export const checked = [valid, primaryType, firstEntry, BaseError.name];
// @ts-expect-error: the parameter is one object, never positional
verifyAttestation(attestation, "0x0BaeFe15c43Ba14D2eB6dabee31a0170A6FF214F");
`;
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const compilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: [],
      lib: ["es2022", "dom"],
      target: "es2022",
    };
    await Promise.all(
      [
        { path: esm, options: { module: "nodenext", moduleResolution: "nodenext" }, file: "consumer.mts" },
        { path: cjs, options: { module: "esnext", moduleResolution: "bundler" }, file: "consumer.ts" },
      ].map(({ path, options, file }) => {
        writeFileSync(join(path, file), source);
        writeFileSync(
          join(path, "tsconfig.json"),
          JSON.stringify({ compilerOptions: { ...compilerOptions, ...options }, files: [file] }),
        );
        return exec(process.execPath, [tsc, "-p", "tsconfig.json"], path);
      }),
    );
  });

  it(`bundles \`verifyAttestation\` alone for the browser in ≤ ${SDK_VERIFY_BUNDLE_BUDGET_BYTES / 1024} kB gzipped, importing nothing of Node's`, async function () {
    const size = await measureSdkVerifyBundle(cjs);
    console.log(`      verifyAttestation only: ${size.minifiedBytes} bytes minified, ${size.gzippedBytes} gzipped`);
    expect(size.gzippedBytes).to.be.at.most(SDK_VERIFY_BUNDLE_BUDGET_BYTES);
    expect(size.packages.map((p) => p.name).sort()).to.deep.equal(["(sdk)", "@noble/curves", "@noble/hashes", "viem"]);
  });
});
