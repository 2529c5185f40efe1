/** Same-origin JSON requests of the client bundle (the session cookie goes along; nothing leaves this origin). */

export type JsonResponse = { status: number; ok: boolean; body: unknown };

/** Sends a request to this service and parses a JSON answer (an empty or non-JSON answer gives `body: null`). */
export async function requestJson(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  if (!path.startsWith("/") || path.startsWith("//")) throw new Error("only paths on this origin");
  const headers: Record<string, string> = { accept: "application/json", ...init.headers };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(path, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
    cache: "no-store",
    redirect: "error",
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, ok: response.ok, body };
}

/** The one-line message of an API error body `{error: {code, message, field?}}`, or a fallback. */
export function errorMessage(response: JsonResponse, fallback: string): string {
  const error = (response.body as { error?: { message?: unknown; field?: unknown } } | null)?.error;
  if (error !== undefined && typeof error.message === "string") return error.message;
  return `${fallback} (HTTP ${response.status})`;
}

/** The `field` an API error names, if any. */
export function errorField(response: JsonResponse): string | null {
  const field = (response.body as { error?: { field?: unknown } } | null)?.error?.field;
  return typeof field === "string" ? field : null;
}

/** Writes a message into a status element (`role="status"` or `role="alert"`), marking its kind for the styles. */
export function say(element: Element | null, kind: "info" | "ok" | "error", message: string): void {
  if (element === null) return;
  element.textContent = message;
  element.setAttribute("data-kind", kind);
  if (element instanceof HTMLElement && element.hidden && message !== "") element.hidden = false;
}

/**
 * Adds a row the server rendered (the `rowHtml` of a create endpoint: the page's own row function, its values
 * escaped) to the end of `tbody`, in place of the table's "nothing yet" row.
 */
export function appendServerRow(tbody: Element | null, rowHtml: unknown): void {
  if (tbody === null || typeof rowHtml !== "string") return;
  tbody.querySelector("tr.empty")?.remove();
  tbody.insertAdjacentHTML("beforeend", rowHtml);
}
