/**
 * The site's icon, drawn once as a few rectangles on a 32 × 32 grid: a navy rounded square, three white bars of
 * rising depth and a yellow floor line across them (a pool's depth and its claimed floor). The same drawing is served
 * as SVG (`/favicon.svg`, which every page links) and as a 32-bit ICO (`/favicon.ico`, which browsers ask for by
 * themselves, e.g. on the JSON API's pages). No file on disk, nothing from a third party.
 */

/** Where the pages link the icon from (`<link rel="icon">`). */
export const FAVICON_PATH = "/favicon.svg";

/** The icon's rectangles on the 32 × 32 grid, back to front. */
const SIZE = 32;
const CORNER = 6;
const SHAPES: readonly { x: number; y: number; w: number; h: number; rgb: string }[] = [
  { x: 0, y: 0, w: 32, h: 32, rgb: "0f2747" },
  { x: 6, y: 17, w: 5, h: 10, rgb: "ffffff" },
  { x: 13, y: 12, w: 5, h: 15, rgb: "ffffff" },
  { x: 20, y: 6, w: 5, h: 21, rgb: "ffffff" },
  { x: 4, y: 20, w: 24, h: 2, rgb: "ffbf47" },
];

/** The icon as SVG text (`image/svg+xml`). */
export function faviconSvg(): string {
  const [background, ...rest] = SHAPES;
  const rects = rest.map((s) => `<rect x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" fill="#${s.rgb}"/>`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}">` +
    `<rect width="${background.w}" height="${background.h}" rx="${CORNER}" fill="#${background.rgb}"/>` +
    `${rects.join("")}</svg>\n`
  );
}

/** Whether the pixel (x, y) lies outside the background's rounded corners. */
function outsideCorner(x: number, y: number): boolean {
  const cx = x < CORNER ? CORNER : x >= SIZE - CORNER ? SIZE - CORNER : null;
  const cy = y < CORNER ? CORNER : y >= SIZE - CORNER ? SIZE - CORNER : null;
  if (cx === null || cy === null) return false;
  const dx = x + 0.5 - cx;
  const dy = y + 0.5 - cy;
  return dx * dx + dy * dy > CORNER * CORNER;
}

/**
 * The icon as an ICO file (`image/x-icon`): one 32 × 32 image, 32 bits per pixel (BGRA, rows bottom-up, the corners
 * transparent), with an all-zero AND mask, as every browser reads it.
 */
export function faviconIco(): Uint8Array {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // one bit per pixel, each row padded to 4 bytes
  const image = 40 + pixels + mask;
  const out = new Uint8Array(6 + 16 + image);
  const view = new DataView(out.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  out[6] = SIZE;
  out[7] = SIZE;
  view.setUint16(10, 1, true); // planes
  view.setUint16(12, 32, true); // bits per pixel
  view.setUint32(14, image, true);
  view.setUint32(18, 22, true); // the image's offset
  view.setUint32(22, 40, true); // BITMAPINFOHEADER
  view.setInt32(26, SIZE, true);
  view.setInt32(30, SIZE * 2, true); // the colour rows and the mask's
  view.setUint16(34, 1, true);
  view.setUint16(36, 32, true);
  view.setUint32(42, pixels + mask, true);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const shape = [...SHAPES].reverse().find((s) => x >= s.x && x < s.x + s.w && y >= s.y && y < s.y + s.h);
      const at = 62 + ((SIZE - 1 - y) * SIZE + x) * 4;
      if (shape === undefined || outsideCorner(x, y)) continue; // transparent
      const rgb = parseInt(shape.rgb, 16);
      out[at] = rgb & 0xff;
      out[at + 1] = (rgb >> 8) & 0xff;
      out[at + 2] = (rgb >> 16) & 0xff;
      out[at + 3] = 0xff;
    }
  }
  return out;
}
