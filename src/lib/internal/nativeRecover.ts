import { errorLine } from "../../errors/utils";
import type { AttestationSignature } from "../types";

/**
 * libsecp256k1 public-key recovery through the `secp256k1` package's N-API addon (prebuilt in the package).
 *
 * NODE ONLY, and the only module of the library that touches it. It is loaded lazily and defensively so that the same
 * sources bundle for the browser: the module id is never a static import, and `require` is reached indirectly, so a
 * bundler leaves it alone (esbuild turns it into a stub that throws, which lands in the catch below) and the library
 * uses the pure-JS backend. In the SDK's ES module build (packages/sdk) there is no `require`: a CommonJS one is made
 * with `module.createRequire`, reached through `process.getBuiltinModule` (Node ≥ 22.3), never an import. It loads
 * `secp256k1/bindings`, never the package root: the root silently falls back to `elliptic` (slow pure JS) when the
 * addon cannot load, and we would report "native" while running that.
 */

/** The part of the package's API used here (`secp256k1/lib/index.js`). */
type Secp256k1Bindings = {
  ecdsaRecover(signature: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
};

/** Recovers the 65-byte uncompressed public key; throws (the backend's own error) when it recovers to no key. */
export type RecoverPublicKey = (hash: Uint8Array, signature: AttestationSignature) => Uint8Array;

export type NativeRecoverLoad = { recover: RecoverPublicKey; error: null } | { recover: null; error: string };

// A signature made with @noble/curves, checked at load: an addon that loads but recovers a wrong key is not used.
const SELF_CHECK = {
  hash: "6d7f19826755c0e576f22fb8a265650d9b4316751d6fdbe3acb83e8c361d0091",
  rs: "0c7d5fdf3cd9b92062962b45e629c9b33f6877298b23e2c9de30bcdd244a4a796af67e6113101725218842fbd48767c27b6844bf4d1e9796075736153bdd7559",
  recid: 1,
  publicKey:
    "04db76385edcf27757769db2b60c105d675a1e131f8085ada07aeaf621240a7a0828a34f84c23664cdccb5d4233c4a2bff136293825e64d3c7f513239f9282c667",
};

let loaded: NativeRecoverLoad | undefined;

/** The native recovery, loaded once per thread; `{recover: null, error}` says why it is not available here. */
export function loadNativeRecover(): NativeRecoverLoad {
  loaded ??= load();
  return loaded;
}

/**
 * The URL of this module in the SDK's ES module build (packages/sdk/scripts/build.mjs defines it as `import.meta.url`);
 * undeclared everywhere else (CommonJS, the service, a browser bundle), where `typeof` gives "undefined".
 */
declare const __ATTESTATION_SDK_ESM_URL__: string | undefined;

type NodeModuleBuiltin = { createRequire(url: string): (id: string) => unknown };

/**
 * Node's `require`: the CommonJS one, or, in an ES module on Node, one made by `module.createRequire` reached through
 * `process.getBuiltinModule` (never an import of `node:module`, so the browser build imports nothing of Node's).
 */
function nodeRequireFunction(): ((id: string) => unknown) | undefined {
  // Indirect on purpose (see the module comment): no bundler follows this call.
  if (typeof __ATTESTATION_SDK_ESM_URL__ !== "string") return typeof require === "function" ? require : undefined;
  if (typeof process !== "object" || process === null || typeof process.getBuiltinModule !== "function")
    return undefined;
  const nodeModule = process.getBuiltinModule("module") as NodeModuleBuiltin | undefined;
  return nodeModule?.createRequire(__ATTESTATION_SDK_ESM_URL__);
}

function load(): NativeRecoverLoad {
  const nodeRequire = nodeRequireFunction();
  if (nodeRequire === undefined || typeof Buffer !== "function")
    return { recover: null, error: "not running on Node.js (no require)" };
  let bindings: Secp256k1Bindings;
  try {
    bindings = nodeRequire("secp256k1/bindings") as Secp256k1Bindings;
  } catch (error) {
    return { recover: null, error: errorLine(error) };
  }
  // `serialized` is 0x + r‖s‖v in lower-case hex: its first 64 bytes are r‖s. libsecp256k1 throws when it finds no
  // key (r is not the x of a curve point, or the result is the point at infinity).
  const recover: RecoverPublicKey = (hash, signature) =>
    bindings.ecdsaRecover(Buffer.from(signature.serialized.slice(2, 130), "hex"), signature.yParity, hash, false);
  try {
    const check = bindings.ecdsaRecover(
      Buffer.from(SELF_CHECK.rs, "hex"),
      SELF_CHECK.recid,
      Buffer.from(SELF_CHECK.hash, "hex"),
      false,
    );
    if (Buffer.from(check).toString("hex") !== SELF_CHECK.publicKey)
      return { recover: null, error: "the addon failed its self-check (wrong key recovered)" };
  } catch (error) {
    return { recover: null, error: `the addon failed its self-check: ${errorLine(error)}` };
  }
  return { recover, error: null };
}
