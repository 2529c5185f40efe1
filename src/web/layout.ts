import { NAV_PAGES, type NavPageId } from "../read/surfaces";
import { chainName, shortAddress } from "./format";
import { FAVICON_PATH } from "./favicon";
import { html, type Html } from "./html";

/** A page's `<body data-page>`: a navigation page of the read surface table, the sign-in page or the error page. */
export type PageId = NavPageId | "sign-in" | "error";

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
  /**
   * The document's referrer policy: `no-referrer` (every page), or `same-origin` for a page with a form that POSTs
   * here (a confirmation page), whose `Origin` header the CSRF rule needs. Send the same in the header.
   */
  referrerPolicy?: "no-referrer" | "same-origin";
};

/**
 * The whole HTML document of a page: the head (the bundle's one script and one stylesheet, both served by this
 * service), a skip link, the header with the signed-in address and the sign-out button, the navigation (the current
 * page marked with `aria-current`) and the page's content in `<main>`.
 */
export function renderPage({
  page,
  title,
  chrome,
  body,
  data = {},
  referrerPolicy = "no-referrer",
}: PageParameters): string {
  const attributes = Object.entries(data).map(([name, value]) => html` data-${name}="${value}"`);
  const doc = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="${referrerPolicy}" />
        <title>${title} · Liquidity attestations</title>
        <link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml" />
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
          <span class="who-id"
            ><span class="who-label">Signed in as </span
            ><code class="address" data-address="${chrome.session.address}" title="${chrome.session.address}"
              >${shortAddress(chrome.session.address)}</code
            >
            <span class="muted chain">(${chainName(chrome.session.chainId)})</span></span
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
  // The navigation: the pages of the read surface table (src/read/surfaces.ts) that have a label, in its nav order.
  const items = NAV_PAGES.map(
    (item) =>
      html`<li><a href="${item.href}" ${item.id === current ? html` aria-current="page"` : ""}>${item.label}</a></li>`,
  );
  const here = NAV_PAGES.find((item) => item.id === current);
  // One list in a <details>: on a phone it is a "Menu" that opens without JavaScript (every link then in view, wrapped);
  // on a wider screen the stylesheet hides the summary and always shows the list (`::details-content`).
  return html`<nav class="pages" aria-label="Pages">
    <details class="menu">
      <summary>Menu${here === undefined ? "" : html`<span class="here"> · ${here.label}</span>`}</summary>
      <ul>
        ${items}
      </ul>
    </details>
  </nav>`;
}
