import { errorField, errorMessage, requestJson, say } from "./http";

/** The form's control for each member of the request body (to focus the one an error names). */
const FIELD_INPUT: Record<string, string> = {
  chainId: "chain-id",
  pool: "pool",
  asset: "asset",
  amountUsd: "amount",
  horizonDays: "horizon",
  note: "note",
};

/** The body of `POST /api/v1/liquidity-requests` from the form: JSON numbers, a pool (its chain from its id) or an asset. */
function bodyOf(form: HTMLFormElement): Record<string, unknown> {
  const data = new FormData(form);
  const text = (name: string) => (data.get(name) ?? "").toString().trim();
  const pool = text("pool");
  const number = (name: string) => (text(name) === "" ? null : Number(text(name)));
  const body: Record<string, unknown> = { amountUsd: number("amountUsd"), horizonDays: number("horizonDays") };
  if (pool !== "") {
    body.pool = pool;
    body.chainId = Number(pool.split(":")[1]);
  } else {
    body.asset = text("asset");
    body.chainId = number("chainId");
  }
  if (text("note") !== "") body.note = text("note");
  return body;
}

/**
 * The liquidity request form: sends the keyed write with the pasted key as `Authorization: Bearer` and a fresh
 * `Idempotency-Key` per attempt (a double click writes once), then reloads the page on the new request; an error is
 * told in the status region and the field it names gets the focus.
 */
export function initLiquidityRequestForm(): void {
  const form = document.querySelector<HTMLFormElement>("[data-request-form]");
  const status = document.querySelector("[data-request-status]");
  if (form === null) return;
  let idempotencyKey = crypto.randomUUID();
  form.addEventListener("input", () => {
    idempotencyKey = crypto.randomUUID();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const key = (new FormData(form).get("apiKey") ?? "").toString().trim();
    if (key === "") {
      say(status, "error", "Paste an API key first (create one on the API keys page).");
      document.getElementById("api-key")?.focus();
      return;
    }
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) submit.disabled = true;
    say(status, "info", "Sending…");
    try {
      const response = await requestJson("/api/v1/liquidity-requests", {
        method: "POST",
        body: bodyOf(form),
        headers: { authorization: `Bearer ${key}`, "idempotency-key": idempotencyKey },
      });
      if (response.status !== 201) {
        const field = errorField(response);
        const label = field === null ? "" : ` (field: ${field})`;
        say(status, "error", `${errorMessage(response, "The request was refused")}${label}`);
        if (field !== null && FIELD_INPUT[field]) document.getElementById(FIELD_INPUT[field])?.focus();
        else if (response.status === 401) document.getElementById("api-key")?.focus();
        return;
      }
      const id = (response.body as { id: string }).id;
      window.location.assign(`/app/liquidity-requests?created=${encodeURIComponent(id)}`);
    } catch (error) {
      say(status, "error", `The request was not sent: ${(error as Error).message}`);
    } finally {
      if (submit) submit.disabled = false;
    }
  });
}
