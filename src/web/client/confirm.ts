/** The question of a destructive action, as the server wrote it into the form's `data-confirm-*` attributes. */
type Question = { title: string; text: string; confirm: string };

/**
 * Asks `question` in the page's modal `<dialog>` (`confirmDialog` in `web/pages/confirm.ts`): resolves true on the
 * confirming button, false on Cancel or Escape. Null when the page has no dialog or the browser cannot show one: the
 * caller then lets the form go to its confirmation page, as without JavaScript.
 */
export function ask(question: Question): Promise<boolean> | null {
  const dialog = document.querySelector<HTMLDialogElement>("[data-confirm-dialog]");
  const title = dialog?.querySelector("[data-confirm-dialog-title]");
  const text = dialog?.querySelector("[data-confirm-dialog-text]");
  const yes = dialog?.querySelector<HTMLButtonElement>("[data-confirm-dialog-yes]");
  const no = dialog?.querySelector<HTMLButtonElement>("[data-confirm-dialog-no]");
  if (!dialog || !title || !text || !yes || !no || typeof dialog.showModal !== "function") return null;
  title.textContent = question.title;
  text.textContent = question.text;
  yes.textContent = question.confirm;
  return new Promise((resolve) => {
    const finish = (answer: boolean) => {
      yes.removeEventListener("click", onYes);
      no.removeEventListener("click", onNo);
      dialog.removeEventListener("cancel", onNo);
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    const onYes = () => finish(true);
    const onNo = () => finish(false);
    yes.addEventListener("click", onYes);
    no.addEventListener("click", onNo);
    dialog.addEventListener("cancel", onNo);
    dialog.showModal();
    no.focus();
  });
}

/**
 * Wires the confirm-first forms of one kind (`<form data-confirm="<kind>">`, `confirmFirst` in `web/pages/confirm.ts`,
 * rows inserted later included): a submit asks in the dialog, and on "yes" runs `act` instead of going to the
 * confirmation page; on "no" nothing changes and the form's button gets the focus back.
 */
export function onConfirmed(kind: string, act: (form: HTMLFormElement, id: string) => Promise<void>): void {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.dataset.confirm !== kind) return;
    const asked = ask({
      title: form.dataset.confirmTitle ?? "",
      text: form.dataset.confirmText ?? "",
      confirm: form.dataset.confirmLabel ?? "Confirm",
    });
    if (asked === null) return;
    event.preventDefault();
    const button = form.querySelector<HTMLButtonElement>("button");
    void asked.then(async (yes) => {
      if (!yes) {
        button?.focus();
        return;
      }
      if (button) button.disabled = true;
      try {
        await act(form, form.dataset.confirmId ?? "");
      } finally {
        if (button?.isConnected) button.disabled = false;
      }
    });
  });
}
