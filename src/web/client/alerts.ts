import { appendServerRow, errorField, errorMessage, requestJson, say } from "./http";

/** The answer of `POST /app/api/alert-subscriptions`: the secret (shown once) and the table row as the page renders it. */
type Created = { id: string; url: string; kinds: string[]; secret: string; rowHtml: string };

/**
 * The alerts page: subscribe (`POST /app/api/alert-subscriptions`, the secret shown once), delete
 * (`DELETE /app/api/alert-subscriptions/{id}`) and resume a paused one (`POST …/{id}/resume`, then the page reloads).
 */
export function initAlerts(): void {
  const form = document.querySelector<HTMLFormElement>("[data-alert-form]");
  const status = document.querySelector("[data-alert-status]");
  const shown = document.querySelector<HTMLElement>("[data-new-secret]");
  const value = document.querySelector<HTMLInputElement>("[data-new-secret-value]");
  const tbody = document.querySelector("table tbody");
  if (form === null) return;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body = { url: (data.get("url") ?? "").toString().trim(), kinds: data.getAll("kinds").map(String) };
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) submit.disabled = true;
    try {
      const response = await requestJson("/app/api/alert-subscriptions", { method: "POST", body });
      if (response.status !== 201) {
        say(status, "error", errorMessage(response, "The subscription was not created"));
        const field = errorField(response);
        if (field === "url") document.getElementById("alert-url")?.focus();
        else if (field === "kinds") form.querySelector<HTMLInputElement>('input[name="kinds"]')?.focus();
        return;
      }
      const created = response.body as Created;
      if (shown !== null && value !== null) {
        value.value = created.secret;
        shown.hidden = false;
        value.focus();
        value.select();
      }
      appendServerRow(tbody, created.rowHtml);
      form.reset();
      say(status, "ok", `Subscribed ${created.url}. Copy the secret now: it is shown once.`);
    } catch (error) {
      say(status, "error", `The subscription was not created: ${(error as Error).message}`);
    } finally {
      if (submit) submit.disabled = false;
    }
  });

  document.addEventListener("click", async (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>(
      '[data-action="delete-alert"], [data-action="resume-alert"]',
    );
    if (!button) return;
    const id = encodeURIComponent(button.dataset.subscriptionId ?? "");
    const resume = button.dataset.action === "resume-alert";
    button.disabled = true;
    const response = resume
      ? await requestJson(`/app/api/alert-subscriptions/${id}/resume`, { method: "POST" })
      : await requestJson(`/app/api/alert-subscriptions/${id}`, { method: "DELETE" });
    if (!response.ok) {
      button.disabled = false;
      say(
        status,
        "error",
        errorMessage(response, resume ? "The subscription was not resumed" : "The subscription was not deleted"),
      );
      return;
    }
    if (resume) {
      window.location.reload();
      return;
    }
    const row = button.closest("tr");
    row?.remove();
    say(status, "ok", "Subscription deleted: nothing more is sent to it.");
  });
}
