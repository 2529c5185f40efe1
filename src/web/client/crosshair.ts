import type { CrosshairData } from "../charts/crosshair";

/**
 * A crosshair on every time-series chart that carries its data (`<script type="application/json" data-crosshair>`,
 * written by `charts/crosshair.ts`): a vertical line and a marker on the nearest day, a readout with the day (its year
 * included) and the chart's values for it, and the same words in a polite `aria-live` region for screen readers.
 * Mouse: hover. Touch: tap or drag sideways (the SVG keeps vertical panning: `touch-action: pan-y`). Keyboard: the
 * chart takes focus (the latest day is shown), Left/Right move a day, Home/End go to the first/latest day, Escape
 * hides it. Without JavaScript none of it exists: the SVG, its caption and its table are the chart's text.
 */
export function initCrosshairs(root: ParentNode = document): void {
  for (const block of Array.from(root.querySelectorAll<HTMLScriptElement>("script[data-crosshair]"))) {
    const figure = block.closest("figure");
    const svg = figure?.querySelector("svg");
    if (!figure || !svg) continue;
    try {
      setUp(figure, svg, JSON.parse(block.textContent ?? "") as CrosshairData);
    } catch {
      // A block that does not parse leaves the chart as the server drew it.
    }
  }
}

function setUp(figure: HTMLElement, svg: SVGSVGElement, data: CrosshairData): void {
  const { points } = data;
  if (points.length === 0) return;
  const hintId = `${svg.getAttribute("aria-labelledby") ?? "chart"}-crosshair-hint`;

  // The chart's own namespace (the bundle names no URL).
  const SVG = svg.namespaceURI;
  const group = document.createElementNS(SVG, "g") as SVGGElement;
  group.setAttribute("class", "crosshair");
  group.setAttribute("aria-hidden", "true");
  const line = document.createElementNS(SVG, "line") as SVGLineElement;
  line.setAttribute("y1", String(data.top));
  line.setAttribute("y2", String(data.bottom));
  const dot = document.createElementNS(SVG, "circle") as SVGCircleElement;
  dot.setAttribute("r", "5");
  group.append(line, dot);
  group.style.display = "none";
  svg.append(group);

  const tip = document.createElement("div");
  tip.className = "crosshair-tip";
  tip.setAttribute("aria-hidden", "true");
  tip.hidden = true;
  const hint = document.createElement("p");
  hint.className = "visually-hidden";
  hint.id = hintId;
  hint.textContent =
    "Read the chart day by day: Left and Right arrow keys move a day, Home and End go to the first and the latest day.";
  const live = document.createElement("p");
  live.className = "visually-hidden";
  live.setAttribute("aria-live", "polite");
  live.dataset.crosshairLive = "";
  figure.classList.add("has-crosshair");
  svg.after(tip, hint, live);
  svg.tabIndex = 0;
  svg.setAttribute("aria-describedby", hintId);

  let current: number | null = null;

  const show = (index: number) => {
    const i = Math.max(0, Math.min(points.length - 1, index));
    if (i === current) return;
    current = i;
    const [x, y, date, text] = points[i];
    line.setAttribute("x1", String(x));
    line.setAttribute("x2", String(x));
    dot.style.display = y === null ? "none" : "";
    if (y !== null) {
      dot.setAttribute("cx", String(x));
      dot.setAttribute("cy", String(y));
    }
    group.style.display = "";
    const words = `${date}: ${text}`;
    tip.textContent = words;
    tip.hidden = false;
    live.textContent = words;
    dataIndex(figure, i);
    place(x);
  };

  /** The readout above the plot, left of the line in the chart's right half and right of it in its left half. */
  const place = (x: number) => {
    const box = svg.getBoundingClientRect();
    const frame = figure.getBoundingClientRect();
    const width = svg.viewBox.baseVal.width || box.width;
    const left = box.left - frame.left + (x / width) * box.width;
    const top = box.top - frame.top + (data.top / (svg.viewBox.baseVal.height || box.height)) * box.height;
    tip.style.top = `${Math.max(0, top)}px`;
    if (left > box.width / 2) {
      tip.style.left = "";
      tip.style.right = `${Math.max(0, frame.width - left + 6)}px`;
    } else {
      tip.style.right = "";
      tip.style.left = `${Math.max(0, left + 6)}px`;
    }
  };

  const hide = () => {
    current = null;
    group.style.display = "none";
    tip.hidden = true;
    delete figure.dataset.crosshairIndex;
  };

  /** The point nearest a pointer's x (in the SVG's units, from the SVG's box on screen). */
  const nearest = (clientX: number) => {
    const box = svg.getBoundingClientRect();
    const width = svg.viewBox.baseVal.width || box.width;
    const x = ((clientX - box.left) / box.width) * width;
    let best = 0;
    for (let i = 1; i < points.length; i++) {
      if (Math.abs(points[i][0] - x) < Math.abs(points[best][0] - x)) best = i;
    }
    return best;
  };

  svg.addEventListener("pointermove", (event) => show(nearest(event.clientX)));
  svg.addEventListener("pointerdown", (event) => show(nearest(event.clientX)));
  svg.addEventListener("pointerleave", (event) => {
    if (event.pointerType === "mouse" && document.activeElement !== svg) hide();
  });
  svg.addEventListener("focus", () => show(current ?? points.length - 1));
  svg.addEventListener("blur", hide);
  svg.addEventListener("keydown", (event) => {
    const at = current ?? points.length - 1;
    const next: Record<string, number> = {
      ArrowLeft: at - 1,
      ArrowRight: at + 1,
      Home: 0,
      End: points.length - 1,
    };
    if (event.key === "Escape") {
      hide();
      return;
    }
    if (!(event.key in next)) return;
    event.preventDefault();
    show(next[event.key]);
  });
}

/** The index shown, on the figure (`data-crosshair-index`), for tests and styles. */
function dataIndex(figure: HTMLElement, index: number): void {
  figure.dataset.crosshairIndex = String(index);
}
