/** Finding an injected wallet: EIP-6963 announcements first, `window.ethereum` (EIP-1193) as the fallback. */

/** The EIP-1193 provider surface the dapp uses. */
export type Eip1193Provider = {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
};

/** An EIP-6963 announcement (`info` + `provider`). */
export type WalletOption = {
  uuid: string;
  name: string;
  /** A `data:` URL (EIP-6963 requires one); anything else is not shown. */
  icon: string | null;
  rdns: string;
  provider: Eip1193Provider;
};

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

const announced = new Map<string, WalletOption>();
const listeners = new Set<() => void>();

function isProvider(value: unknown): value is Eip1193Provider {
  return typeof value === "object" && value !== null && typeof (value as Eip1193Provider).request === "function";
}

/**
 * Starts listening for `eip6963:announceProvider` and asks wallets to announce themselves. Every wallet found is
 * kept (by uuid); `onChange` runs when one more appears.
 */
export function discoverWallets(onChange: () => void): void {
  listeners.add(onChange);
  if (listeners.size > 1) return;
  window.addEventListener("eip6963:announceProvider", (event) => {
    const detail = (event as CustomEvent).detail as { info?: Record<string, unknown>; provider?: unknown } | undefined;
    const info = detail?.info;
    if (info === undefined || !isProvider(detail?.provider) || typeof info.uuid !== "string") return;
    const icon = typeof info.icon === "string" && info.icon.startsWith("data:image/") ? info.icon : null;
    const option: WalletOption = {
      uuid: info.uuid,
      name: typeof info.name === "string" && info.name !== "" ? info.name.slice(0, 60) : "Browser wallet",
      icon,
      rdns: typeof info.rdns === "string" ? info.rdns : "",
      provider: detail.provider,
    };
    const isNew = !announced.has(option.uuid);
    announced.set(option.uuid, option);
    if (isNew) for (const listener of listeners) listener();
  });
  window.dispatchEvent(new Event("eip6963:requestProvider"));
}

/** The wallets announced so far, in the order they announced themselves. */
export function announcedWallets(): WalletOption[] {
  return [...announced.values()];
}

/**
 * The provider to use: the chosen announced wallet, else the first announced, else `window.ethereum` (asked again
 * after a short wait, for wallets that announce late), else null: no wallet in this browser.
 */
export async function pickProvider(uuid: string | null): Promise<Eip1193Provider | null> {
  const choose = (): Eip1193Provider | null => {
    const wallets = announcedWallets();
    const chosen = wallets.find((w) => w.uuid === uuid) ?? wallets[0];
    if (chosen !== undefined) return chosen.provider;
    return isProvider(window.ethereum) ? window.ethereum : null;
  };
  const now = choose();
  if (now !== null) return now;
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  await new Promise((resolve) => setTimeout(resolve, 400));
  return choose();
}

/** A wallet error's EIP-1193 code (4001 user rejected, 4100 unauthorized, -32002 already pending...), or null. */
export function walletErrorCode(error: unknown): number | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : null;
}

/** What to tell the user about a wallet error, in one sentence. */
export function walletErrorMessage(error: unknown): string {
  switch (walletErrorCode(error)) {
    case 4001:
      return "You declined the request in your wallet, so nothing was signed. Press the button to try again.";
    case 4100:
      return "Your wallet did not allow this site to use the account. Unlock the wallet or allow the site, then try again.";
    case 4900:
    case 4901:
      return "Your wallet is not connected to a network. Connect it, then try again.";
    case -32002:
      return "Your wallet already has a request open for this site. Finish or close it there, then try again.";
    default: {
      const message = (error as { message?: unknown } | null)?.message;
      return `The wallet answered with an error${typeof message === "string" ? `: ${message.slice(0, 200)}` : ""}.`;
    }
  }
}
