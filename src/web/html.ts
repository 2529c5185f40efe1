/**
 * A tiny typed HTML template: every interpolated value is escaped unless it is already {@link Html} (built by
 * {@link html} or marked with {@link trusted}). Pages are built only from these, so a pool symbol, a note or an
 * activity summary taken from the store can never become markup.
 */

/** Markup that is already safe: built by {@link html} (its values escaped) or {@link trusted}. */
export class Html {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

/** What a template accepts: markup, text (escaped), numbers, nothing (`null`, `undefined`, `false`) or lists of them. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  if (value === true) return "";
  return escapeHtml(String(value));
}

/**
 * The template tag: `html\`<td>${pool.symbol}</td>\`` escapes `pool.symbol`. Attribute values must be quoted in the
 * template (`class="${x}"`); the escaping covers both quote characters.
 *
 * @example
 * import { html } from "./html";
 * const row = html`<tr><td>${symbol}</td><td>${depth}</td></tr>`;
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Marks a constant string of markup as safe. Never pass it text that came from a request or the store. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/**
 * JSON for a `<script type="application/json">` data block: `<`, `>`, `&` and the line separators are written as
 * `\u` escapes, so no value can close the element or open a comment.
 */
export function jsonData(value: unknown): Html {
  const text = JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return new Html(text);
}
