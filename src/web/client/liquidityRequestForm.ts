import { clearFieldErrors, formText, showFieldErrors, type FieldError } from "./fieldErrors";
import { errorField, errorMessage, requestJson, say, type JsonResponse } from "./http";

/** The form's control for each member of the request body (the API error's `field` names the member). */
const FIELD_INPUT: Record<string, string> = {
  chainId: "chain-id",
  pool: "pool",
  asset: "asset",
  amountUsd: "amount",
  horizonDays: "horizon",
  note: "note",
};

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A control's value, trimmed. */
const valueOf = (form: HTMLFormElement, name: string) => formText(new FormData(form), name).trim();

/** The limits the page wrote into the controls (`max`, `maxlength`: the write's own, rendered by the server). */
function limitOf(id: string, attribute: "max" | "maxlength"): number {
  return Number(document.getElementById(id)?.getAttribute(attribute) ?? Number.POSITIVE_INFINITY);
}

/** Every field the keyed write would refuse, checked in the browser, each with a sentence for a person. */
function checkForm(form: HTMLFormElement): FieldError[] {
  const errors: FieldError[] = [];
  if (valueOf(form, "pool") === "") {
    const asset = valueOf(form, "asset");
    if (asset === "") errors.push({ input: "asset", message: "Pick a pool above, or enter a token address here." });
    else if (!ADDRESS.test(asset)) {
      errors.push({ input: "asset", message: "A token address is 0x followed by 40 hexadecimal digits." });
    }
    const chainId = Number(valueOf(form, "chainId"));
    if (valueOf(form, "chainId") === "" || !Number.isInteger(chainId) || chainId < 1) {
      errors.push({ input: "chain-id", message: "Enter the token's chain id, a whole number such as 1 (Ethereum)." });
    }
  }
  const amount = Number(valueOf(form, "amountUsd"));
  const maxAmount = limitOf("amount", "max");
  if (valueOf(form, "amountUsd") === "" || !Number.isFinite(amount) || amount <= 0 || amount > maxAmount) {
    errors.push({
      input: "amount",
      message: `Enter the amount in US dollars: more than 0, at most ${maxAmount.toLocaleString("en-US")}.`,
    });
  }
  const horizon = Number(valueOf(form, "horizonDays"));
  const maxDays = limitOf("horizon", "max");
  if (!Number.isInteger(horizon) || horizon < 1 || horizon > maxDays) {
    errors.push({ input: "horizon", message: `Enter a whole number of days, from 1 to ${maxDays}.` });
  }
  if (valueOf(form, "note").length > limitOf("note", "maxlength")) {
    errors.push({ input: "note", message: `Keep the note to ${limitOf("note", "maxlength")} characters.` });
  }
  return errors;
}

/** What the keyed write refused, as a field error: its `field` mapped to the control, its sentence for a person. */
function serverError(response: JsonResponse): FieldError | null {
  const field = errorField(response);
  const input = field === null ? undefined : FIELD_INPUT[field];
  if (input === undefined) return null;
  const code = (response.body as { error?: { code?: unknown } } | null)?.error?.code;
  // The schema's and the parser's messages name JSON members; a rule about a pool (unknown, malformed) is a sentence.
  const sentences: Record<string, string> = {
    "chain-id": "Enter the token's chain id, a whole number such as 1 (Ethereum).",
    asset: "A token address is 0x followed by 40 hexadecimal digits, not the zero address.",
    amount: `Enter the amount in US dollars: more than 0, at most ${limitOf("amount", "max").toLocaleString("en-US")}.`,
    horizon: `Enter a whole number of days, from 1 to ${limitOf("horizon", "max")}.`,
    note: "The note cannot hold control characters; keep it to plain text.",
    pool: "Pick one of the tracked pools, or name a token address instead.",
  };
  const message = code === "INVALID_REQUEST" ? sentences[input] : errorMessage(response, sentences[input]);
  return { input, message };
}

/** The body of `POST /api/v1/liquidity-requests` from the form: JSON numbers, a pool (its chain from its id) or an asset. */
function bodyOf(form: HTMLFormElement): Record<string, unknown> {
  const text = (name: string) => valueOf(form, name);
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
 * The liquidity request form: checks every field in the browser first and shows each problem under its field at once
 * (`aria-invalid`, `aria-describedby`), then sends it as the signed-in wallet (`POST /app/api/liquidity-requests`, the
 * keyed write's rules, no API key) with a fresh `Idempotency-Key` per attempt (a double click writes once), and reloads the page on the new request. A
 * refusal of the API is shown the same way, under the field its `field` names.
 */
export function initLiquidityRequestForm(): void {
  const form = document.querySelector<HTMLFormElement>("[data-request-form]");
  const status = document.querySelector("[data-request-status]");
  // Back from a new request: its confirmation (at the top) takes the focus, so it is read first.
  document.querySelector<HTMLElement>("[data-request-created]")?.focus();
  if (form === null) return;
  let idempotencyKey = crypto.randomUUID();
  form.addEventListener("input", () => {
    idempotencyKey = crypto.randomUUID();
  });
  const send = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const errors = checkForm(form);
    if (errors.length > 0) {
      showFieldErrors(form, errors, status);
      return;
    }
    clearFieldErrors(form);
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) submit.disabled = true;
    say(status, "info", "Sending…");
    try {
      const response = await requestJson("/app/api/liquidity-requests", {
        method: "POST",
        body: bodyOf(form),
        headers: { "idempotency-key": idempotencyKey },
      });
      if (response.status === 401) {
        say(status, "error", "Your session has ended: sign in again, then send the request.");
        return;
      }
      if (response.status !== 201) {
        const error = serverError(response);
        if (error !== null) showFieldErrors(form, [error], status);
        else say(status, "error", errorMessage(response, "The request was refused"));
        return;
      }
      const id = (response.body as { id: string }).id;
      window.location.assign(`/app/liquidity-requests?created=${encodeURIComponent(id)}`);
    } catch (error) {
      say(status, "error", `The request was not sent: ${(error as Error).message}`);
    } finally {
      if (submit) submit.disabled = false;
    }
  };
  form.addEventListener("submit", (event) => void send(event));
}
