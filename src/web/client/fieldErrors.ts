import { say } from "./http";

/** A text control's value in a form's data ("" when absent; the forms hold no file inputs, whose values are files). */
export function formText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === "string" ? value : "";
}

/** One invalid field: the id of its control (an input, a select, or the fieldset of a group) and a sentence. */
export type FieldError = { input: string; message: string };

/** The id of the element that holds a control's error sentence (`<p class="field-error">`, rendered by the page). */
const errorId = (input: string) => `${input}-error`;

function describedBy(element: Element, add: string | null, remove: string): void {
  const ids = (element.getAttribute("aria-describedby") ?? "").split(/\s+/).filter((id) => id !== "" && id !== remove);
  if (add !== null) ids.push(add);
  if (ids.length > 0) element.setAttribute("aria-describedby", ids.join(" "));
  else element.removeAttribute("aria-describedby");
}

/** The controls an error marks invalid: the control itself, or each input of a fieldset (a group of checkboxes). */
function controlsOf(element: HTMLElement): HTMLElement[] {
  return element instanceof HTMLFieldSetElement
    ? Array.from(element.querySelectorAll<HTMLElement>("input, select, textarea"))
    : [element];
}

/** Takes every error mark off the form: `aria-invalid`, the sentences, their `aria-describedby` links. */
export function clearFieldErrors(form: HTMLFormElement): void {
  for (const sentence of Array.from(form.querySelectorAll<HTMLElement>(".field-error"))) {
    const input = sentence.id.replace(/-error$/, "");
    const element = document.getElementById(input);
    if (element !== null) {
      describedBy(element, null, sentence.id);
      for (const control of controlsOf(element)) control.removeAttribute("aria-invalid");
    }
    sentence.textContent = "";
  }
}

/**
 * Shows every error at once, each under its field: the sentence goes into the field's `<p id="<input>-error">` (made
 * when the page has none), the field gets `aria-invalid="true"` and the sentence in its `aria-describedby` (after its
 * help text). The status line says how many fields need a change, and the first of them gets the focus.
 */
export function showFieldErrors(form: HTMLFormElement, errors: readonly FieldError[], status: Element | null): void {
  clearFieldErrors(form);
  let first: HTMLElement | null = null;
  for (const { input, message } of errors) {
    const element = document.getElementById(input);
    if (element === null) continue;
    let sentence = document.getElementById(errorId(input));
    if (sentence === null) {
      sentence = Object.assign(document.createElement("p"), { id: errorId(input), className: "field-error" });
      element.insertAdjacentElement("afterend", sentence);
    }
    sentence.textContent = message;
    describedBy(element, sentence.id, sentence.id);
    const controls = controlsOf(element);
    for (const control of controls) control.setAttribute("aria-invalid", "true");
    first ??= controls[0] ?? element;
  }
  const count = errors.length;
  say(
    status,
    "error",
    count === 1
      ? "One field needs a change: see the message under it."
      : `${count} fields need a change: see the messages under them.`,
  );
  first?.focus();
}
