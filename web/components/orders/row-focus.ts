/**
 * Puts the focus back on an order's row after a dialog or an Undo (issue 22): its dispatch button
 * while it is Ready to Dispatch, else its view button. The row may re-render a moment later (the
 * list reloads), so it is looked for over the next frames; a row gone from the list (filtered out)
 * leaves the focus where it is.
 */
export function focusOrderRow(orderId: string, options: { expectDispatch?: boolean; prefer?: "view" } = {}, tries = 60): void {
  const actions = document.querySelector<HTMLElement>(`[data-order-actions="${CSS.escape(orderId)}"]`);
  const view = actions?.querySelector<HTMLElement>('[data-action="view"]');
  // The keyboard's j and k land on the view button (o opens, d dispatches: both act on the row anyway).
  const dispatch = options.prefer === "view" ? null : actions?.querySelector<HTMLElement>('[data-action="dispatch"]:not([disabled])');
  // After an Undo the row still shows its dispatched state until React draws the reloaded list: the
  // dispatch button is waited for, and the view button taken only if it never comes.
  const target = dispatch ?? (options.expectDispatch && tries > 0 ? undefined : view);
  if (target) {
    target.focus();
    return;
  }
  if (tries > 0) requestAnimationFrame(() => focusOrderRow(orderId, options, tries - 1));
}

/** Focuses the first element matching `selector` once it is there (over the next frames). */
export function focusWhenPresent(selector: string, tries = 30): void {
  const target = document.querySelector<HTMLElement>(selector);
  if (target) target.focus();
  else if (tries > 0) requestAnimationFrame(() => focusWhenPresent(selector, tries - 1));
}
