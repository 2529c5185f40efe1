import { expect } from "chai";
import { buildSync } from "esbuild";
import { join } from "node:path";
import vm from "node:vm";
import vectors from "../vectors/attestation-v1.json";
import { getVerifyBackend } from "../../src/lib/getVerifyBackend";
import { setVerifyBackend } from "../../src/lib/setVerifyBackend";

const b01 = vectors.cases[0];
const root = join(__dirname, "..", "..");
/** The library's sources, which the bundles are built from. */
const sources = join(root, "src", "lib");

/** The library's backend functions and verifyAttestation, bundled by esbuild as the given platform. */
function bundle(platform: "browser" | "node"): string {
  const { outputFiles } = buildSync({
    stdin: {
      contents:
        'export { getVerifyBackend } from "./getVerifyBackend";\n' +
        'export { setVerifyBackend } from "./setVerifyBackend";\n' +
        'export { verifyAttestation } from "./verifyAttestation";\n',
      resolveDir: sources,
      loader: "ts",
    },
    bundle: true,
    platform,
    format: "iife",
    globalName: "lib",
    write: false,
    logLevel: "silent",
  });
  return outputFiles[0].text;
}

type Lib = {
  getVerifyBackend(): { backend: string; setting: string; nativeError: string | null };
  verifyAttestation(p: { attestation: unknown; address: string }): { valid: boolean };
};

/** Evaluates a bundle in a fresh context that has only `globals` (plus the JS built-ins). */
function load(
  code: string,
  globals: Record<string, unknown> | ((context: vm.Context) => Record<string, unknown>),
): Lib {
  const context = vm.createContext({ TextEncoder, TextDecoder });
  Object.assign(context, typeof globals === "function" ? globals(context) : globals);
  return vm.runInContext(`${code}\nlib`, context) as Lib;
}

/** Calls `fn` and returns the error's code (errors from a bundle are of its own classes). */
function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as { code: string }).code;
  }
  return "no error";
}

// No `time`: a Date from this realm is not `instanceof Date` in the bundle's; `valid` does not depend on the clock.
const verifyB01 = (lib: Lib) =>
  lib.verifyAttestation({ attestation: b01.attestation, address: b01.expectedAttester }).valid;

describe("getVerifyBackend", () => {
  afterEach(() => setVerifyBackend({ backend: "auto" }));

  it("uses libsecp256k1 here by default (the package's prebuild loads)", () => {
    setVerifyBackend({ backend: "auto" });
    expect(getVerifyBackend()).to.deep.equal({ backend: "native", setting: "auto", nativeError: null });
  });

  describe("in a browser bundle (esbuild, platform=browser): silently the pure-JS path", () => {
    it("bundles verifyAttestation without any Node.js module, with or without --external:secp256k1", () => {
      for (const external of [[], ["secp256k1"]]) {
        const result = buildSync({
          entryPoints: [join(sources, "verifyAttestation.ts")],
          bundle: true,
          platform: "browser",
          format: "esm",
          external,
          write: false,
          metafile: true,
          absWorkingDir: root,
          logLevel: "silent",
        });
        expect(result.errors).to.deep.equal([]);
        const inputs = Object.keys(result.metafile.inputs);
        expect(inputs.filter((file) => /secp256k1\/|node-gyp-build|node:|worker_threads/.test(file))).to.deep.equal([]);
        expect(Object.values(result.metafile.outputs)[0].imports).to.deep.equal([]);
        expect(inputs).to.include("src/lib/internal/jsRecover.ts");
      }
    });

    it("verifies with js and says why native is not used", () => {
      const lib = load(bundle("browser"), {}); // no require, no process, no Buffer
      expect(lib.getVerifyBackend()).to.deep.equal({
        backend: "js",
        setting: "auto",
        nativeError: "not running on Node.js (no require)",
      });
      expect(verifyB01(lib)).to.equal(true);
    });
  });

  describe("on Node.js where the addon cannot load (no prebuild for the platform)", () => {
    const code = bundle("node");
    /** A `require` that fails for the addon as node does for a missing module, and delegates everything else. */
    const requireWithout = (addon: unknown, context: vm.Context) => (id: string) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a stand-in for `require` itself
      if (id !== "secp256k1/bindings") return require(id);
      if (addon !== undefined) return addon;
      const error = new (vm.runInContext("Error", context) as ErrorConstructor)(`Cannot find module '${id}'`);
      throw Object.assign(error, { code: "MODULE_NOT_FOUND" });
    };
    const node = (env: Record<string, string | undefined>, addon?: unknown) =>
      load(code, (context) => ({ require: requireWithout(addon, context), process: { env }, Buffer }));

    it("auto (the default) falls back to js and keeps verifying", () => {
      for (const env of [{}, { ATTEST_VERIFY_BACKEND: "" }, { ATTEST_VERIFY_BACKEND: "auto" }]) {
        const lib = node(env);
        expect(lib.getVerifyBackend()).to.deep.equal({
          backend: "js",
          setting: "auto",
          nativeError: "Cannot find module 'secp256k1/bindings'",
        });
        expect(verifyB01(lib)).to.equal(true);
      }
    });

    it("ATTEST_VERIFY_BACKEND=native refuses to verify at all (never a silent fallback)", () => {
      const lib = node({ ATTEST_VERIFY_BACKEND: "native" });
      expect(codeOf(() => lib.getVerifyBackend())).to.equal("VERIFY_BACKEND_UNAVAILABLE");
      expect(codeOf(() => verifyB01(lib))).to.equal("VERIFY_BACKEND_UNAVAILABLE");
    });

    it("ATTEST_VERIFY_BACKEND=js does not even try the addon", () => {
      const lib = node({ ATTEST_VERIFY_BACKEND: "js" });
      expect(lib.getVerifyBackend()).to.deep.equal({ backend: "js", setting: "js", nativeError: null });
      expect(verifyB01(lib)).to.equal(true);
    });

    it("a value other than auto, native or js is an error on first use", () => {
      const lib = node({ ATTEST_VERIFY_BACKEND: "fast" });
      expect(codeOf(() => lib.getVerifyBackend())).to.equal("VERIFY_BACKEND_INVALID");
      expect(codeOf(() => verifyB01(lib))).to.equal("VERIFY_BACKEND_INVALID");
    });

    it("an addon that loads but recovers a wrong key fails the self-check and is not used", () => {
      const liar = { ecdsaRecover: () => new Uint8Array(65).fill(4) };
      const lib = node({}, liar);
      expect(lib.getVerifyBackend()).to.deep.equal({
        backend: "js",
        setting: "auto",
        nativeError: "the addon failed its self-check (wrong key recovered)",
      });
      expect(verifyB01(lib)).to.equal(true);
    });

    it("with the real require, the same bundle uses libsecp256k1", () => {
      const lib = load(code, { require, process: { env: {} }, Buffer });
      expect(lib.getVerifyBackend()).to.deep.equal({ backend: "native", setting: "auto", nativeError: null });
      expect(verifyB01(lib)).to.equal(true);
    });
  });
});
