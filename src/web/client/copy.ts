/**
 * The Copy buttons beside a value shown once (a new API key, a webhook secret): a click copies the field named by the
 * button's `data-copy` to the clipboard and says so in the field's status line. Where the clipboard is refused (no
 * permission, an insecure origin), the field's text is selected and the line asks to copy it by hand.
 */
export function initCopyButtons(): void {
  for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>("button[data-copy]"))) {
    const id = button.dataset.copy ?? "";
    const copy = async (): Promise<void> => {
      const field = document.getElementById(id) as HTMLInputElement | null;
      const status = document.querySelector(`[data-copy-status="${CSS.escape(id)}"]`);
      if (field === null || field.value === "") return;
      let copied = false;
      try {
        await navigator.clipboard.writeText(field.value);
        copied = true;
      } catch {
        copied = false;
      }
      field.focus();
      field.select();
      if (status !== null) {
        status.textContent = copied
          ? "Copied to the clipboard."
          : "The browser did not allow copying: the text is selected, copy it with your keyboard or menu.";
      }
    };
    button.addEventListener("click", () => void copy());
  }
}
