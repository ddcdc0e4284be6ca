/**
 * Puts the focus back on an order's row after a dialog or an Undo (issue 22): its dispatch button
 * while it is Ready to Dispatch, else its view button. The row may re-render a moment later (the
 * list reloads), so it is looked for over the next frames; a row gone from the list (filtered out)
 * leaves the focus where it is.
 */
export function focusOrderRow(orderId: string, tries = 30): void {
  const actions = document.querySelector<HTMLElement>(`[data-order-actions="${CSS.escape(orderId)}"]`);
  const target =
    actions?.querySelector<HTMLElement>('[data-action="dispatch"]:not([disabled])') ?? actions?.querySelector<HTMLElement>('[data-action="view"]');
  if (target) {
    target.focus();
    return;
  }
  if (tries > 0) requestAnimationFrame(() => focusOrderRow(orderId, tries - 1));
}

/** Focuses the first element matching `selector` once it is there (over the next frames). */
export function focusWhenPresent(selector: string, tries = 30): void {
  const target = document.querySelector<HTMLElement>(selector);
  if (target) target.focus();
  else if (tries > 0) requestAnimationFrame(() => focusWhenPresent(selector, tries - 1));
}
