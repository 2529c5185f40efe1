import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { AlertTargetRefusedError } from "../errors/alerts";
import { isPublicAddress } from "./isPublicAddress";

/** The longest target URL accepted. */
export const MAX_TARGET_URL_LENGTH = 2048;

/** How long a host name may take to resolve. */
const RESOLVE_TIMEOUT_MS = 5000;

/** Resolves a host name to every address it has (injectable: tests answer with the addresses they need). */
export type AlertTargetResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** The system resolver (`getaddrinfo`, so `/etc/hosts` too), every address, in the resolver's order. */
export const resolveWithSystem: AlertTargetResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export type CheckAlertTargetParameters = {
  /** The target as given. */
  url: string;
  /** `ALERTS_ALLOW_PRIVATE_TARGETS=1`: lifts the address rule and allows `http` (demo and tests only). */
  allowPrivateTargets: boolean;
  /** Default: {@link resolveWithSystem}. */
  resolve?: AlertTargetResolver;
};
/** A checked target: the normalized URL and the one address to connect to (pinned: never resolved again). */
export type CheckAlertTargetReturnType = { url: URL; address: string; family: 4 | 6 };
export type CheckAlertTargetErrorType = AlertTargetRefusedError;

/**
 * Checks an alert target against the delivery rules and resolves it, once: `https` only; no credentials; an IP address
 * only in its standard spelling (`https://2130706433/` and `https://0177.0.0.1/` are refused, although the URL
 * parser reads both as 127.0.0.1); and EVERY address the host name resolves to must be public (a name with one
 * private address among public ones is refused). The caller connects to the returned address and no other, so a
 * name that resolves differently a moment later (DNS rebinding) cannot move the connection. Called at subscribe time
 * and again before every attempt.
 *
 * A refusal never names an address the host name resolved to (only that one is not public): the message reaches the
 * caller (and a delivery's `lastError`), and must not tell what an internal name points at. A literal IP address is
 * named, as the caller wrote it.
 *
 * @param {@link CheckAlertTargetParameters}
 * @returns {@link CheckAlertTargetReturnType}
 * @throws {@link AlertTargetRefusedError} naming the rule.
 * @example
 * import { checkAlertTarget } from "./alerts/checkAlertTarget";
 * const { url, address } = await checkAlertTarget({ url: "https://hooks.example.com/in", allowPrivateTargets: false });
 */
export async function checkAlertTarget(parameters: CheckAlertTargetParameters): Promise<CheckAlertTargetReturnType> {
  const { allowPrivateTargets, resolve = resolveWithSystem } = parameters;
  const url = parseAlertTarget(parameters);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host);
  if (literal !== 0) {
    if (!allowPrivateTargets && !isPublicAddress(host)) throw refused(`${host} is not a public address`);
    return { url, address: host, family: literal as 4 | 6 };
  }
  let addresses: { address: string; family: number }[];
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error("timeout"), { code: "ETIMEOUT" })), RESOLVE_TIMEOUT_MS);
    });
    addresses = await Promise.race([resolve(host), late]);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw refused(`the host name ${host} does not resolve${typeof code === "string" ? ` (${code})` : ""}`);
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) throw refused(`the host name ${host} does not resolve`);
  if (!allowPrivateTargets && addresses.some((entry) => !isPublicAddress(entry.address))) {
    // Never the address itself: the message goes back to whoever holds a key or a session, and naming what an
    // internal name resolves to would make this check a DNS oracle for the service's network.
    throw refused(
      `the host name ${host} resolves to an address that is not public (loopback, private, link-local or reserved)`,
    );
  }
  const [first] = addresses;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * The syntax rules of a target, without DNS: a URL of at most {@link MAX_TARGET_URL_LENGTH} characters, `https`
 * (or `http` when private targets are allowed), no user name or password, and an IPv4 host only in dotted decimal.
 *
 * @returns the URL as the WHATWG parser normalizes it.
 * @throws {@link AlertTargetRefusedError}
 */
export function parseAlertTarget({ url, allowPrivateTargets }: Omit<CheckAlertTargetParameters, "resolve">): URL {
  if (typeof url !== "string" || url.length === 0) throw refused("the url must be a non-empty string");
  if (url.length > MAX_TARGET_URL_LENGTH) throw refused(`the url is longer than ${MAX_TARGET_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused("the url is not a valid absolute URL");
  }
  const schemes = allowPrivateTargets ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(parsed.protocol)) {
    throw refused(`the url must use ${allowPrivateTargets ? "https or http" : "https"}, not ${parsed.protocol}`);
  }
  if (parsed.username !== "" || parsed.password !== "") throw refused("the url must not carry a user name or password");
  if (parsed.hostname === "") throw refused("the url has no host");
  // The parser turns decimal, octal and hex spellings (2130706433, 0177.0.0.1, 0x7f.1) into dotted decimal: refuse
  // any IPv4 host that the input did not already spell that way, so what is checked is what the owner wrote.
  if (isIP(parsed.hostname) === 4) {
    // What follows the scheme and its slashes (no user info: refused above) up to the first delimiter.
    const raw = url
      .replace(/[\t\n\r]/g, "")
      .trim()
      .toLowerCase()
      .slice(parsed.protocol.length);
    const written = /^[/\\]*([^/\\?#:]*)/.exec(raw)?.[1];
    if (written !== parsed.hostname) {
      throw refused(`write the IP address ${parsed.hostname} in dotted decimal (no decimal, octal or hex forms)`);
    }
  }
  return parsed;
}

function refused(reason: string): AlertTargetRefusedError {
  return new AlertTargetRefusedError({ reason });
}
