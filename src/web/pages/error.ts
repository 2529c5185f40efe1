import { notice } from "../components";
import { html } from "../html";
import { renderPage, type PageChrome } from "../layout";

/** A page that could not be shown: the error's one-line message (4xx) or a generic one (5xx), never internals. */
export function renderErrorPage(
  { status, code, message }: { status: number; code: string; message: string },
  chrome: PageChrome,
): string {
  const title = status === 404 ? "Not found" : status < 500 ? "Cannot show this page" : "Something went wrong";
  const body = html`${notice(
      "error",
      html`<p>${message}</p>
        <p class="muted">${status} <code>${code}</code></p>`,
    )}
    <p><a href="/app/pools">Go to the pools</a></p>`;
  return renderPage({ page: "error", title, chrome, body });
}
