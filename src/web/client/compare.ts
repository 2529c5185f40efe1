import { say } from "./http";

/** The most pools a comparison takes (the API answers 400 TOO_MANY_POOLS above it; the server page says so too). */
const MAX = 4;

/** The compare picker: once four pools are ticked, the other boxes are disabled until one is unticked. */
export function initCompare(): void {
  const form = document.querySelector<HTMLFormElement>("[data-compare-form]");
  const status = document.querySelector("[data-compare-status]");
  if (form === null) return;
  const boxes = Array.from(form.querySelectorAll<HTMLInputElement>('input[type="checkbox"][name="pools"]'));
  const update = () => {
    const picked = boxes.filter((box) => box.checked).length;
    for (const box of boxes) box.disabled = !box.checked && picked >= MAX;
    say(
      status,
      "info",
      picked >= MAX
        ? `${MAX} pools picked: the most a comparison takes. Untick one to pick another.`
        : `${picked} of ${MAX} picked.`,
    );
  };
  form.addEventListener("change", update);
  update();
}
