import { deliveriesText } from "../format";
import { onConfirmed } from "./confirm";
import { clearFieldErrors, formText, showFieldErrors, type FieldError } from "./fieldErrors";
import { appendServerRow, errorField, errorMessage, requestJson, say, type JsonResponse } from "./http";

/** The answer of `POST /app/api/alert-subscriptions`: the secret (shown once) and the table row as the page renders it. */
type Created = { id: string; url: string; kinds: string[]; pool: string | null; secret: string; rowHtml: string };

/** What `GET /app/api/alert-subscriptions` tells of a subscription's deliveries. */
type Deliveries = { pending: number; delivered: number; failed: number };
type Listed = { subscriptions: { id: string; deliveries: Deliveries }[] };

/** How often, and how long, the page asks again after a test event (it updates the row's deliveries cell). */
const POLL_MS = 1000;
const POLL_FOR_MS = 60_000;

/** The answer of `POST /app/api/alert-subscriptions/{id}/test`. */
type TestQueued = { webhookId: string };

/** Whether the text is a whole URL. */
function parses(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** Every problem of the subscribe form, checked in the browser, each with a sentence under its field. */
function checkForm(body: { url: string; kinds: string[] }): FieldError[] {
  const errors: FieldError[] = [];
  if (body.url === "") {
    errors.push({ input: "alert-url", message: "Enter the URL that receives the webhooks, starting with https://." });
  } else if (!parses(body.url)) {
    errors.push({
      input: "alert-url",
      message: "This is not a whole URL: write it with https:// and the host, as in the example in the field.",
    });
  }
  if (body.kinds.length === 0) errors.push({ input: "alert-kinds", message: "Tick at least one event kind." });
  return errors;
}

/** A refusal of the API as a field error (the target rules' own sentence; a person's sentence for a schema's). */
function serverError(response: JsonResponse, withPool: boolean): FieldError | null {
  const field = errorField(response);
  const code = (response.body as { error?: { code?: unknown } } | null)?.error?.code;
  if (field === "url") {
    const message =
      code === "ALERT_TARGET_REFUSED"
        ? errorMessage(response, "This target is refused.")
        : "This is not a URL the service can send to: write it whole, with https:// and the host.";
    return { input: "alert-url", message };
  }
  if (field === "kinds") {
    // With a pool, the service's own sentence: none of the kinds ticked is ever about a pool.
    const fallback = "Tick at least one event kind, each once.";
    return { input: "alert-kinds", message: withPool ? errorMessage(response, fallback) : fallback };
  }
  if (field === "pool" || code === "POOL_NOT_FOUND" || code === "AMBIGUOUS_POOL")
    return { input: "alert-pool", message: errorMessage(response, "This pool cannot be chosen.") };
  return null;
}

/**
 * The alerts page: subscribe (`POST /app/api/alert-subscriptions`, the secret shown once; every invalid field told
 * under it at once), send a test event (`POST …/{id}/test`), delete after a confirmation in the dialog
 * (`DELETE …/{id}`) and resume a paused one (`POST …/{id}/resume`, then the page reloads).
 */
export function initAlerts(): void {
  const form = document.querySelector<HTMLFormElement>("[data-alert-form]");
  const status = document.querySelector("[data-alert-status]");
  const rowStatus = document.querySelector("[data-alert-row-status]");
  const shown = document.querySelector<HTMLElement>("[data-new-secret]");
  const value = document.querySelector<HTMLInputElement>("[data-new-secret-value]");
  const tbody = document.querySelector("table tbody");
  if (form === null) return;

  const create = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const data = new FormData(form);
    const pool = formText(data, "pool");
    const body = {
      url: formText(data, "url").trim(),
      kinds: data.getAll("kinds").map(String),
      pool: pool === "" ? null : pool,
    };
    const errors = checkForm(body);
    if (errors.length > 0) {
      showFieldErrors(form, errors, status);
      return;
    }
    clearFieldErrors(form);
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) submit.disabled = true;
    try {
      const response = await requestJson("/app/api/alert-subscriptions", { method: "POST", body });
      if (response.status !== 201) {
        const error = serverError(response, body.pool !== null);
        if (error !== null) showFieldErrors(form, [error], status);
        else say(status, "error", errorMessage(response, "The subscription was not created"));
        return;
      }
      const created = response.body as Created;
      appendServerRow(tbody, created.rowHtml);
      form.reset();
      say(status, "ok", "");
      // The confirmation above the form, focused (a screen reader reads it; the page scrolls to it).
      if (shown !== null && value !== null) {
        const title = shown.querySelector("[data-new-secret-title]");
        // The pool by its name, as the form's picker shows it (its id only when the picker does not list it).
        const option =
          created.pool === null ? null : form.querySelector(`#alert-pool option[value="${CSS.escape(created.pool)}"]`);
        const pool = created.pool === null ? "every pool" : `${option?.textContent?.trim() ?? created.pool} only`;
        if (title) title.textContent = `Subscribed ${created.url} to ${created.kinds.join(", ")}, for ${pool}.`;
        value.value = created.secret;
        shown.hidden = false;
        const copied = shown.querySelector("[data-copy-status]");
        if (copied) copied.textContent = "";
        shown.focus();
      }
    } catch (error) {
      say(status, "error", `The subscription was not created: ${(error as Error).message}`);
    } finally {
      if (submit) submit.disabled = false;
    }
  };
  form.addEventListener("submit", (event) => void create(event));

  // Deleting asks first (the dialog; without JavaScript the form goes to the confirmation page).
  onConfirmed("delete-alert", async (confirmForm, id) => {
    const response = await requestJson(`/app/api/alert-subscriptions/${encodeURIComponent(id)}`, { method: "DELETE" });
    if (!response.ok) {
      say(rowStatus, "error", errorMessage(response, "The subscription was not deleted"));
      return;
    }
    confirmForm.closest("tr")?.remove();
    say(rowStatus, "ok", "Subscription deleted: nothing more is sent to it.");
  });

  const act = async (event: MouseEvent): Promise<void> => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>(
      '[data-action="resume-alert"], [data-action="test-alert"]',
    );
    if (!button) return;
    const id = encodeURIComponent(button.dataset.subscriptionId ?? "");
    const resume = button.dataset.action === "resume-alert";
    button.disabled = true;
    const response = await requestJson(`/app/api/alert-subscriptions/${id}/${resume ? "resume" : "test"}`, {
      method: "POST",
    });
    button.disabled = false;
    if (!response.ok) {
      const what = resume ? "The subscription was not resumed" : "The test event was not sent";
      say(rowStatus, "error", errorMessage(response, what));
      return;
    }
    if (resume) {
      window.location.reload();
      return;
    }
    const { webhookId } = response.body as TestQueued;
    say(
      rowStatus,
      "ok",
      `Test event queued (webhook-id ${webhookId}): pending; its row's deliveries update here when it goes out.`,
    );
    void followDeliveries(button.dataset.subscriptionId ?? "", rowStatus);
  };
  document.addEventListener("click", (event) => void act(event));
}

/**
 * After a test event: asks `GET /app/api/alert-subscriptions` every second (for a minute at most) and writes the
 * subscription's deliveries into its row, until nothing of it is pending; then says whether it was delivered.
 */
async function followDeliveries(id: string, rowStatus: Element | null): Promise<void> {
  const cell = document.querySelector(`tr[data-subscription-id="${CSS.escape(id)}"] [data-deliveries-text]`);
  if (cell === null) return;
  // The counts the row showed before the test event (the page writes them in data attributes).
  const delivered = Number(cell.getAttribute("data-delivered") ?? 0);
  const failed = Number(cell.getAttribute("data-failed") ?? 0);
  // Counted in tries, not by the clock (a page's clock may stand still).
  for (let tries = 0; tries < POLL_FOR_MS / POLL_MS; tries++) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const response = await requestJson("/app/api/alert-subscriptions", { method: "GET" }).catch(() => null);
    const found = (response?.body as Listed | null)?.subscriptions?.find((s) => s.id === id);
    if (found === undefined) return;
    const d = found.deliveries;
    cell.textContent = deliveriesText(d);
    if (d.pending === 0 && d.delivered > delivered) return say(rowStatus, "ok", "Test event delivered.");
    if (d.pending === 0 && d.failed > failed) return say(rowStatus, "error", "The test event failed.");
  }
}
