import {
  InvalidVerifyBackendError,
  VERIFY_BACKEND_SETTINGS,
  VerifyBackendUnavailableError,
} from "../../errors/verifyBackend";
import { recoverPublicKeyJs } from "./jsRecover";
import { loadNativeRecover, type RecoverPublicKey } from "./nativeRecover";

/** The recovery backend actually used: libsecp256k1 (N-API) or pure JS (@noble/curves). */
export type VerifyBackend = "native" | "js";
/** What is asked for: `auto` takes native when it loads, else js; `native` and `js` force one. */
export type VerifyBackendSetting = (typeof VERIFY_BACKEND_SETTINGS)[number];

export type ActiveBackend = {
  backend: VerifyBackend;
  setting: VerifyBackendSetting;
  /** Why native is not used (null when it is, or when js was asked for and native was not tried). */
  nativeError: string | null;
  recover: RecoverPublicKey;
};

/** Set by `setVerifyBackend`; else the environment decides on first use. */
let requested: VerifyBackendSetting | undefined;
let active: ActiveBackend | undefined;

/** `ATTEST_VERIFY_BACKEND`, where there is a process environment (not in a browser). Unset or empty: `auto`. */
function settingFromEnvironment(): VerifyBackendSetting {
  const value = typeof process === "object" && process !== null ? process.env?.ATTEST_VERIFY_BACKEND : undefined;
  if (value === undefined || value === "") return "auto";
  return parseVerifyBackendSetting("ATTEST_VERIFY_BACKEND", value);
}

/** Checks a backend setting; `source` names where it came from in the error. */
export function parseVerifyBackendSetting(source: string, value: unknown): VerifyBackendSetting {
  if (!(VERIFY_BACKEND_SETTINGS as readonly unknown[]).includes(value))
    throw new InvalidVerifyBackendError({ source, value });
  return value as VerifyBackendSetting;
}

/** Resolves a setting to a backend; `native` that cannot load throws `VerifyBackendUnavailableError`. */
export function resolveBackend(setting: VerifyBackendSetting): ActiveBackend {
  if (setting === "js") return { backend: "js", setting, nativeError: null, recover: recoverPublicKeyJs };
  const native = loadNativeRecover();
  if (native.recover !== null) return { backend: "native", setting, nativeError: null, recover: native.recover };
  if (setting === "native") throw new VerifyBackendUnavailableError({ reason: native.error });
  return { backend: "js", setting, nativeError: native.error, recover: recoverPublicKeyJs };
}

/**
 * The backend in use, chosen on first call: the one `setVerifyBackend` set, else `ATTEST_VERIFY_BACKEND`
 * (`auto` by default). A forced `native` that cannot load, or a bad variable, throws here on every call: loudly, never
 * a silent fallback.
 */
export function activeBackend(): ActiveBackend {
  active ??= resolveBackend(requested ?? settingFromEnvironment());
  return active;
}

/** Makes `setting` the backend of this thread from now on (throws, changing nothing, when it cannot be used). */
export function useBackend(setting: VerifyBackendSetting): ActiveBackend {
  const next = resolveBackend(setting);
  requested = setting;
  active = next;
  return next;
}
