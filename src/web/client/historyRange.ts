import { initCrosshairs } from "./crosshair";

/**
 * The pool page's range toggles, enhanced: a click fetches the same page for the new range (the server renders it, as
 * without JavaScript) and swaps in its history section, keeping the scroll position; the address follows
 * (`history.pushState`), and Back swaps the previous range in again. Any failure falls back to following the link.
 */
export function initHistoryRange(): void {
  document.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>("nav.range-toggles a[data-range]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void swap(link.href, true);
  });
  window.addEventListener("popstate", () => void swap(location.href, false));
}

async function swap(href: string, push: boolean): Promise<void> {
  const current = document.querySelector("section[data-history]");
  try {
    const response = await fetch(href, { headers: { accept: "text/html" }, credentials: "same-origin" });
    if (!response.ok || current === null) throw new Error(String(response.status));
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const next = page.querySelector("section[data-history]");
    if (next === null) throw new Error("no history section");
    const imported = document.importNode(next, true);
    current.replaceWith(imported);
    initCrosshairs(imported);
    if (push) history.pushState(null, "", href);
    const selected = imported.querySelector<HTMLElement>("nav.range-toggles a[aria-current]");
    selected?.focus({ preventScroll: true });
  } catch {
    location.href = href;
  }
}
