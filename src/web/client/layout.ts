/**
 * What the page's layout needs from the browser: each table frame whose table is wider than it is marked
 * `data-scrolls` (the stylesheet then says "Scroll sideways for more columns" above the table), again on every
 * resize; and the phone's one-row navigation is scrolled so that the current page's link is in view.
 */
export function initLayout(): void {
  const frames = Array.from(document.querySelectorAll<HTMLElement>(".table-wrap"));
  const mark = () => {
    for (const frame of frames) frame.toggleAttribute("data-scrolls", frame.scrollWidth > frame.clientWidth + 1);
  };
  mark();
  if (typeof ResizeObserver === "function") {
    const observer = new ResizeObserver(mark);
    for (const frame of frames) observer.observe(frame);
  } else {
    window.addEventListener("resize", mark);
  }
  const current = document.querySelector<HTMLElement>('nav.pages a[aria-current="page"]');
  const list = current?.closest("ul");
  if (current && list && list.scrollWidth > list.clientWidth) {
    const item = current.getBoundingClientRect();
    const row = list.getBoundingClientRect();
    list.scrollLeft += item.left - row.left - (row.width - item.width) / 2;
  }
}
