import { html, type Html } from "../html";
import { renderPage, type PageChrome, type PageId } from "../layout";

/**
 * A destructive action asks first, with the client bundle and without it. Its control is a small GET form
 * (`confirmFirst`) to a confirmation page of its own (`renderConfirmPage`), whose "Confirm" button POSTs the change: so
 * without JavaScript a click leads to that page. The client bundle catches the form's submit instead and asks the
 * same question in the page's modal `<dialog>` (`confirmDialog`), then sends the JSON request itself. The question is
 * written once, here, into the form's `data-confirm-*` attributes and the page.
 */
export type ConfirmQuestion = {
  /** The question, e.g. "Revoke this API key?". */
  title: string;
  /** What the action does and what it acts on, in one or two sentences. */
  text: string;
  /** The confirming button's text, e.g. "Revoke key". */
  confirm: string;
};

/**
 * The control of a destructive action in a table row: a GET form to its confirmation page, with one submit button
 * whose accessible name (`label`) names the thing acted on, so two rows never give two buttons of the same name.
 */
export function confirmFirst(
  { action, label, text, kind, id }: { action: string; label: string; text: string; kind: string; id: string },
  question: ConfirmQuestion,
): Html {
  return html`<form
    method="get"
    action="${action}"
    class="inline"
    data-confirm="${kind}"
    data-confirm-id="${id}"
    data-confirm-title="${question.title}"
    data-confirm-text="${question.text}"
    data-confirm-label="${question.confirm}"
  >
    <button type="submit" class="danger" aria-label="${label}">${text}</button>
  </form>`;
}

/** The modal dialog the client bundle fills from a `confirmFirst` form and opens (Cancel has the focus first). */
export function confirmDialog(): Html {
  return html`<dialog
    class="confirm"
    data-confirm-dialog
    aria-labelledby="confirm-title"
    aria-describedby="confirm-text"
  >
    <h2 id="confirm-title" data-confirm-dialog-title></h2>
    <p id="confirm-text" data-confirm-dialog-text></p>
    <div class="actions">
      <button type="button" class="danger" data-confirm-dialog-yes></button>
      <button type="button" class="secondary" data-confirm-dialog-no autofocus>Cancel</button>
    </div>
  </dialog>`;
}

export type ConfirmPageParameters = {
  /** The navigation page it belongs to (`keys`, `alerts`). */
  page: PageId;
  question: ConfirmQuestion;
  /** Where "Confirm" POSTs (the page's own path). */
  action: string;
  /** Where "Cancel" goes back to. */
  back: string;
};

/**
 * The confirmation page of a destructive action (without JavaScript): the question, a POST form with the confirming
 * button, and Cancel, a link back. It is sent with `Referrer-Policy: same-origin`, so that the browser puts this
 * origin in the POST's `Origin` header (under `no-referrer` a form sends `Origin: null`, which the CSRF rule refuses).
 */
export function renderConfirmPage({ page, question, action, back }: ConfirmPageParameters, chrome: PageChrome): string {
  const body = html`<p>${question.text}</p>
    <div class="actions">
      <form method="post" action="${action}">
        <button type="submit" class="danger">${question.confirm}</button>
      </form>
      <a class="button secondary" href="${back}">Cancel</a>
    </div>`;
  return renderPage({ page, title: question.title, chrome, body, referrerPolicy: "same-origin" });
}
