import { onConfirmed } from "./confirm";
import { clearFieldErrors, formText, showFieldErrors } from "./fieldErrors";
import { appendServerRow, errorField, errorMessage, requestJson, say } from "./http";

/** The answer of `POST /app/api/keys`: the key (shown once) and its table row as the page renders it. */
type CreatedKey = { id: string; key: string; label: string | null; createdAt: number; rowHtml: string };

/**
 * The keys page: create (`POST /app/api/keys`, the key shown once), revoke after a confirmation in the dialog
 * (`DELETE /app/api/keys/{id}`).
 */
export function initApiKeys(): void {
  const form = document.querySelector<HTMLFormElement>("[data-key-form]");
  const status = document.querySelector("[data-key-status]");
  const shown = document.querySelector<HTMLElement>("[data-new-key]");
  const value = document.querySelector<HTMLInputElement>("[data-new-key-value]");
  const tbody = document.querySelector("table tbody");
  if (form === null) return;

  const create = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) submit.disabled = true;
    const label = formText(new FormData(form), "label").trim();
    try {
      const response = await requestJson("/app/api/keys", {
        method: "POST",
        body: { label: label === "" ? null : label },
      });
      if (response.status !== 201) {
        if (errorField(response) === "label") {
          const message = "A label is plain text of at most 100 characters (or nothing).";
          showFieldErrors(form, [{ input: "key-label", message }], status);
        } else say(status, "error", errorMessage(response, "The key was not created"));
        return;
      }
      clearFieldErrors(form);
      const key = response.body as CreatedKey;
      if (shown !== null && value !== null) {
        value.value = key.key;
        shown.hidden = false;
        const copied = shown.querySelector("[data-copy-status]");
        if (copied) copied.textContent = "";
        value.focus();
        value.select();
      }
      appendServerRow(tbody, key.rowHtml);
      form.reset();
      say(status, "ok", `Key ${key.label ?? key.id} created. Copy it now: it is shown once.`);
    } catch (error) {
      say(status, "error", `The key was not created: ${(error as Error).message}`);
    } finally {
      if (submit) submit.disabled = false;
    }
  };
  form.addEventListener("submit", (event) => void create(event));

  // Revoking asks first (the dialog; without JavaScript the form goes to the confirmation page).
  onConfirmed("revoke-key", async (confirmForm, id) => {
    const response = await requestJson(`/app/api/keys/${encodeURIComponent(id)}`, { method: "DELETE" });
    if (!response.ok || (response.body as { revoked?: unknown } | null)?.revoked !== true) {
      say(
        status,
        "error",
        response.ok
          ? "This wallet has no working key with that id."
          : errorMessage(response, "The key was not revoked"),
      );
      return;
    }
    const row = confirmForm.closest("tr");
    const state = row?.querySelector("[data-key-state]");
    if (state) {
      const tag = Object.assign(document.createElement("span"), { className: "tag stale", textContent: "revoked" });
      state.replaceChildren(tag);
    }
    confirmForm.remove();
    say(status, "ok", "Key revoked: it now answers 401 everywhere.");
  });
}
