import { randomUUID } from "node:crypto";
import type { BrowserContext } from "playwright-core";
import { isHex, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";

/** What the test wallet does with `personal_sign`: sign, or refuse as a user would (EIP-1193 error 4001). */
export type TestWalletMode = "sign" | "reject";

/** One EIP-1193 request the page sent, as the wallet saw it (for assertions). */
export type WalletCall = { method: string; params: unknown[] };

export type TestWallet = { calls: WalletCall[]; setMode(mode: TestWalletMode): void };

type WalletAnswer = { result: unknown } | { error: { code: number; message: string } };

/**
 * Installs an injected test wallet in every page of `context` (the johanneskares/wallet-mock pattern): an init
 * script announces an EIP-6963 provider (and sets `window.ethereum`) whose `request` calls a function exposed from
 * Node, where a viem account answers `eth_requestAccounts`, `eth_accounts`, `eth_chainId` and signs `personal_sign`.
 * In "reject" mode `personal_sign` fails with `{code: 4001}` like a user pressing Reject. Await this BEFORE
 * `context.newPage()` (an init script added later is not in the first document: microsoft/playwright#38442).
 */
export async function installTestWallet(
  context: BrowserContext,
  { account, chainId = 1, mode = "sign" }: { account: PrivateKeyAccount; chainId?: number; mode?: TestWalletMode },
): Promise<TestWallet> {
  const calls: WalletCall[] = [];
  let current = mode;
  const uuid = randomUUID();

  async function answer({ method, params = [] }: { method: string; params?: unknown[] }): Promise<WalletAnswer> {
    calls.push({ method, params });
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return { result: [account.address] };
      case "eth_chainId":
        return { result: `0x${chainId.toString(16)}` };
      case "personal_sign": {
        if (current === "reject") return { error: { code: 4001, message: "User rejected the request." } };
        const [data, address] = params as [string, string];
        if (typeof address !== "string" || address.toLowerCase() !== account.address.toLowerCase()) {
          return { error: { code: 4100, message: "Unknown account." } };
        }
        const raw = isHex(data) ? (data as Hex) : undefined;
        const signature =
          raw === undefined
            ? await account.signMessage({ message: data })
            : await account.signMessage({ message: { raw } });
        return { result: signature };
      }
      default:
        return { error: { code: 4200, message: `The test wallet does not support ${method}.` } };
    }
  }

  await context.exposeFunction("__testWalletRequest", answer);
  await context.addInitScript(
    ({ uuid: id }) => {
      type Answer = { result?: unknown; error?: { code: number; message: string } };
      const bridge = (window as unknown as { __testWalletRequest: (args: unknown) => Promise<Answer> })
        .__testWalletRequest;
      const provider = {
        async request(args: { method: string; params?: unknown[] }) {
          const reply = await bridge({ method: args.method, params: args.params ?? [] });
          if (reply.error) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
          return reply.result;
        },
        on() {},
        removeListener() {},
      };
      const info = {
        uuid: id,
        name: "Test Wallet",
        icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'/%3E",
        rdns: "org.example.test-wallet",
      };
      const announce = () =>
        window.dispatchEvent(
          new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }),
        );
      (window as unknown as { ethereum: unknown }).ethereum = provider;
      window.addEventListener("eip6963:requestProvider", announce);
      announce();
    },
    { uuid },
  );
  return {
    calls,
    setMode(mode: TestWalletMode) {
      current = mode;
    },
  };
}
