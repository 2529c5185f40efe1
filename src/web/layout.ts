import { chainName } from "./format";
import { html, type Html } from "./html";

/** The pages of the dapp, in the order the navigation lists them (the sign-in page is not listed). */
export const NAV = [
  { id: "pools", href: "/app/pools", label: "Pools" },
  { id: "volume", href: "/app/volume", label: "Volume" },
  { id: "liquidity-map", href: "/app/liquidity-map", label: "Liquidity map" },
  { id: "compare", href: "/app/compare", label: "Compare" },
  { id: "roadmap", href: "/app/roadmap", label: "Roadmap" },
  { id: "launch", href: "/app/launch", label: "Launch gates" },
  { id: "activity", href: "/app/activity", label: "Activity" },
  { id: "liquidity-requests", href: "/app/liquidity-requests", label: "Liquidity requests" },
  { id: "keys", href: "/app/keys", label: "API keys" },
  { id: "alerts", href: "/app/alerts", label: "Alerts" },
] as const;

export type PageId = (typeof NAV)[number]["id"] | "sign-in" | "error";

/** The URLs of the built client bundle (content-hashed; see `assets.ts`). */
export type AssetUrls = { script: string; style: string };

/** What every signed-in page shows around its content. */
export type PageChrome = {
  assets: AssetUrls;
  /** The signed-in wallet (EIP-55), or null on the sign-in page. */
  session: { address: string; chainId: number } | null;
};

export type PageParameters = {
  page: PageId;
  title: string;
  chrome: PageChrome;
  body: Html;
  /** Extra `data-*` attributes for `<body>` that the client bundle reads (already safe names). */
  data?: Record<string, string>;
};

/**
 * The whole HTML document of a page: the head (the bundle's one script and one stylesheet, both served by this
 * service), a skip link, the header with the signed-in address and the sign-out button, the navigation (the current
 * page marked with `aria-current`) and the page's content in `<main>`.
 */
export function renderPage({ page, title, chrome, body, data = {} }: PageParameters): string {
  const attributes = Object.entries(data).map(([name, value]) => html` data-${name}="${value}"`);
  const doc = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title} · Liquidity attestations</title>
        <link rel="stylesheet" href="${chrome.assets.style}" />
        <script src="${chrome.assets.script}" defer></script>
      </head>
      <body data-page="${page}" ${attributes}>
        <a class="skip" href="#main">Skip to content</a>
        ${header(chrome)} ${chrome.session === null ? "" : navigation(page)}
        <main id="main" tabindex="-1">
          <h1>${title}</h1>
          ${body}
        </main>
        <footer class="foot">
          <p>
            Every figure on these pages comes from the same reader as the open API under <code>/api/v1</code>. The API
            needs no sign-in.
          </p>
        </footer>
      </body>
    </html> `;
  return doc.toString();
}

function header(chrome: PageChrome): Html {
  const who =
    chrome.session === null
      ? ""
      : html`<div class="who">
          <span
            >Signed in as
            <code class="address" data-address="${chrome.session.address}">${chrome.session.address}</code>
            <span class="muted">(${chainName(chrome.session.chainId)})</span></span
          >
          <button type="button" class="secondary" data-action="sign-out">Sign out</button>
          <p class="status" role="status" data-sign-out-status></p>
        </div>`;
  return html`<header class="top">
    <a class="brand" href="/app/pools">Liquidity attestations</a>
    ${who}
  </header>`;
}

function navigation(current: PageId): Html {
  const items = NAV.map(
    (item) =>
      html`<li><a href="${item.href}" ${item.id === current ? html` aria-current="page"` : ""}>${item.label}</a></li>`,
  );
  return html`<nav class="pages" aria-label="Pages">
    <ul>
      ${items}
    </ul>
  </nav>`;
}
