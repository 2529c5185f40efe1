/**
 * What the page's layout needs from the browser: each table frame whose table is wider than it is marked
 * `data-scrolls` (the stylesheet then says "Scroll sideways for more columns" above the table), again on every
 * resize.
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
}
