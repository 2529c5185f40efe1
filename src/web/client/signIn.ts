import { getAddress, toHex } from "viem";
import { createSiweMessage } from "viem/siwe";
import { errorMessage, requestJson, say } from "./http";
import { announcedWallets, discoverWallets, pickProvider, walletErrorMessage, type Eip1193Provider } from "./wallet";

/** How long the signed message stays valid (the server also caps it). */
const MESSAGE_LIFETIME_MS = 10 * 60 * 1000;

/** Where to go after sign-in: the page's `data-next` (the server keeps it a path on this site), checked again. */
function nextPath(): string {
  const next = document.body.dataset.next ?? "";
  return next.startsWith("/") && !next.startsWith("//") && !next.includes("\\") ? next : "/app/pools";
}

/** Lists the wallets found (radio buttons when there are several, so the user picks one). */
function renderWallets(container: HTMLElement): void {
  const wallets = announcedWallets();
  container.replaceChildren();
  if (wallets.length === 0) return;
  if (wallets.length === 1) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = `Wallet found: ${wallets[0].name}.`;
    container.append(p);
    return;
  }
  const fieldset = document.createElement("fieldset");
  const legend = document.createElement("legend");
  legend.textContent = "Choose a wallet";
  fieldset.append(legend);
  wallets.forEach((wallet, i) => {
    const id = `wallet-${i}`;
    const input = Object.assign(document.createElement("input"), {
      type: "radio",
      name: "wallet",
      id,
      value: wallet.uuid,
    });
    input.checked = i === 0;
    const label = Object.assign(document.createElement("label"), { htmlFor: id });
    if (wallet.icon !== null) {
      const img = Object.assign(document.createElement("img"), { src: wallet.icon, alt: "", width: 20, height: 20 });
      label.append(img, " ");
    }
    label.append(wallet.name);
    const row = document.createElement("div");
    row.className = "radio";
    row.append(input, label);
    fieldset.append(row);
  });
  container.append(fieldset);
}

/** The account, chain and EIP-4361 signature, then `POST /auth/verify`. Throws wallet errors as they come. */
async function signInWith(provider: Eip1193Provider, status: Element | null): Promise<void> {
  say(status, "info", "Asking your wallet for an account…");
  const accounts = await provider.request({ method: "eth_requestAccounts" });
  if (!Array.isArray(accounts) || typeof accounts[0] !== "string") throw new Error("the wallet gave no account");
  const address = getAddress(accounts[0]);
  const chainHex = await provider.request({ method: "eth_chainId" });
  const chainId = typeof chainHex === "string" ? Number.parseInt(chainHex, 16) : Number(chainHex);
  if (!Number.isSafeInteger(chainId) || chainId < 1) throw new Error("the wallet gave no chain id");

  const nonceResponse = await requestJson("/auth/nonce");
  const nonce = (nonceResponse.body as { nonce?: unknown } | null)?.nonce;
  if (!nonceResponse.ok || typeof nonce !== "string") throw new Error(errorMessage(nonceResponse, "No sign-in nonce"));

  const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
  const message = createSiweMessage({
    domain: window.location.host,
    address,
    statement: "Sign in to the liquidity attestations dapp.",
    uri: window.location.origin,
    version: "1",
    chainId,
    nonce,
    issuedAt,
    expirationTime: new Date(issuedAt.getTime() + MESSAGE_LIFETIME_MS),
  });
  say(status, "info", "Asking your wallet to sign the sign-in message…");
  const signature = await provider.request({ method: "personal_sign", params: [toHex(message), address] });
  if (typeof signature !== "string") throw new Error("the wallet gave no signature");

  say(status, "info", "Checking the signature…");
  const verified = await requestJson("/auth/verify", { method: "POST", body: { message, signature } });
  if (!verified.ok) throw new Error(errorMessage(verified, "The service refused the sign-in"));
  say(status, "ok", "Signed in. Opening the dapp…");
  window.location.assign(nextPath());
}

/** Wires the sign-in page: wallet discovery, the button, and every failure told in one sentence. */
export function initSignIn(): void {
  const button = document.querySelector<HTMLButtonElement>('[data-action="sign-in"]');
  const status = document.querySelector("[data-sign-in-status]");
  const alertBox = document.querySelector<HTMLElement>("[data-sign-in-error]");
  const walletList = document.querySelector<HTMLElement>("[data-wallets]");
  if (button === null) return;
  if (walletList !== null) discoverWallets(() => renderWallets(walletList));

  const signIn = async (): Promise<void> => {
    button.disabled = true;
    say(alertBox, "error", "");
    if (alertBox !== null) alertBox.hidden = true;
    try {
      const chosen = document.querySelector<HTMLInputElement>('input[name="wallet"]:checked')?.value ?? null;
      const provider = await pickProvider(chosen);
      if (provider === null) {
        say(status, "info", "");
        say(
          alertBox,
          "error",
          "No Ethereum wallet was found in this browser. Install or enable a browser wallet (an extension such as " +
            "MetaMask or Rabby), reload this page and try again.",
        );
        return;
      }
      await signInWith(provider, status);
    } catch (error) {
      say(status, "info", "");
      const code = (error as { code?: unknown } | null)?.code;
      say(alertBox, "error", typeof code === "number" ? walletErrorMessage(error) : (error as Error).message);
    } finally {
      button.disabled = false;
    }
  };
  button.addEventListener("click", () => void signIn());
}
