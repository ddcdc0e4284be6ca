// The customer's choice of options on a product card (issue 23): one value index per option, or
// null while that option is not chosen yet. The choice rides in the buttons' callback data, which
// Telegram limits to 64 bytes, so it is written compactly: "1.-.3" (the second option not chosen).
// With a product id (36 characters) and at most 3 options of 20 values, the longest button is
// "po:<id>:19.19.19:2.19" (53 bytes).

import type { Translator } from "../shop/languages";

export type ProductOption = { name: string; values: string[] };
export type Choice = (number | null)[];

/** What the card needs of a variant. */
export type ChoosableVariant = {
  id: string;
  optionValues: Record<string, string>;
  stock: number;
  isActive: boolean;
};

/** The characters of an encoded choice, for the handlers' patterns. */
export const CHOICE_SOURCE = "(?:\\d{1,2}|-)(?:\\.(?:\\d{1,2}|-)){0,2}";

export const noChoice = (options: readonly ProductOption[]): Choice => options.map(() => null);

export function encodeChoice(choice: Choice): string {
  return choice.map((index) => (index === null ? "-" : String(index))).join(".");
}

/** The choice in a button, or null when it does not fit the product's options (they changed since the button was sent). */
export function decodeChoice(text: string, options: readonly ProductOption[]): Choice | null {
  const parts = text.split(".");
  if (parts.length !== options.length) return null;
  const choice: Choice = [];
  for (const [k, part] of parts.entries()) {
    if (part === "-") {
      choice.push(null);
      continue;
    }
    if (!/^\d{1,2}$/.test(part)) return null;
    const index = Number(part);
    if (index >= options[k]!.values.length) return null;
    choice.push(index);
  }
  return choice;
}

export const isComplete = (choice: Choice) => choice.every((index) => index !== null);

/** The choice with option k set to value j (null: not chosen). */
export const withValue = (choice: Choice, k: number, j: number | null): Choice => choice.map((index, i) => (i === k ? j : index));

// Values are compared without case: the contract refuses two values of an option differing only in case.
const same = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();

function matches(variant: ChoosableVariant, options: readonly ProductOption[], choice: Choice): boolean {
  return choice.every((index, k) => index === null || same(variant.optionValues[options[k]!.name], options[k]!.values[index]));
}

/** The active variants that fit the choice so far. */
export function matching<V extends ChoosableVariant>(variants: readonly V[], options: readonly ProductOption[], choice: Choice): V[] {
  return variants.filter((variant) => variant.isActive && matches(variant, options, choice));
}

/** Whether something fitting the choice can be bought now (an active variant with stock). */
export function canBuy(variants: readonly ChoosableVariant[], options: readonly ProductOption[], choice: Choice): boolean {
  return matching(variants, options, choice).some((variant) => variant.stock > 0);
}

/** The variant a complete choice names, when it is on sale. */
export function chosenVariant<V extends ChoosableVariant>(variants: readonly V[], options: readonly ProductOption[], choice: Choice): V | null {
  return isComplete(choice) ? (matching(variants, options, choice)[0] ?? null) : null;
}

/** "M / Black": the chosen values in the options' order. */
export function choiceLabel(options: readonly ProductOption[], choice: Choice): string {
  return choice.flatMap((index, k) => (index === null ? [] : [options[k]!.values[index]!])).join(" / ");
}

/** A variant's values as a choice; null when they do not fit the product's options (a stale variant). */
export function choiceOf(options: readonly ProductOption[], optionValues: Record<string, string>): Choice | null {
  const choice = options.map((option) => {
    const index = option.values.findIndex((value) => same(value, optionValues[option.name]));
    return index < 0 ? null : index;
  });
  return isComplete(choice) ? choice : null;
}

/**
 * Why value j of option k cannot be bought with the choice so far: "M / Black is sold out" when
 * such a variant exists without stock, "No M in Black" when there is no such variant at all.
 */
export function unavailableReason(variants: readonly ChoosableVariant[], options: readonly ProductOption[], choice: Choice, k: number, j: number, tr: Translator): string {
  const next = withValue(choice, k, j);
  if (matching(variants, options, next).length > 0) return tr.t("variant-sold-out", { choice: choiceLabel(options, next) });
  const value = options[k]!.values[j]!;
  const others = choiceLabel(options, withValue(choice, k, null));
  return others ? tr.t("variant-none-in", { value, others }) : tr.t("variant-unavailable", { value });
}
