import { html } from "../html";
import { renderPage, type AssetUrls } from "../layout";

/**
 * The sign-in page: a button that asks an injected EIP-1193 wallet (EIP-6963 discovery, else `window.ethereum`) to
 * sign an EIP-4361 message; the client bundle builds the message, sends it to `POST /auth/verify` and goes to `next`.
 * Without a wallet, or when the user declines (error 4001), it says so in the status region.
 */
export function renderSignInPage({ assets, next }: { assets: AssetUrls; next: string }): string {
  const body = html`<p class="lead">
      The pages of this dapp need a sign-in with an Ethereum account (EIP-4361, externally owned accounts only). The
      open API under <code>/api/v1</code> and the agent interface need none.
    </p>
    <section class="card signin" aria-labelledby="wallet-heading">
      <h2 id="wallet-heading" class="h3">Sign in with your wallet</h2>
      <p>Your wallet will show a message naming this site; signing it costs nothing and sends no transaction.</p>
      <div class="wallets" data-wallets></div>
      <button type="button" class="primary" data-action="sign-in">Sign in with Ethereum</button>
      <p class="status" role="status" data-sign-in-status></p>
      <div class="notice error" role="alert" data-sign-in-error hidden></div>
      <noscript><p class="notice error">Signing in needs JavaScript and a browser wallet.</p></noscript>
    </section>`;
  return renderPage({
    page: "sign-in",
    title: "Sign in",
    chrome: { assets, session: null },
    body,
    data: { next },
  });
}
