import { createContext, useContext } from "react";
import type { StorefrontCatalogue, StorefrontCheckout } from "../../contract/storefront";
import type { StorefrontApi } from "./api";
import type { Launch } from "./telegram";
import type { Texts } from "./texts";

// What every screen of the storefront reads: the launch, the API, the catalogue, the words, and
// how to move between screens (app.tsx keeps the stack of screens; the Back Button pops it).

export type Screen =
  | { name: "catalogue" }
  | { name: "product"; productId: string }
  | { name: "cart" }
  | { name: "checkout" }
  | { name: "payment"; checkout: StorefrontCheckout }
  | { name: "orders" }
  | { name: "support" };

export type Storefront = {
  launch: Launch;
  api: StorefrontApi;
  catalogue: StorefrontCatalogue;
  texts: Texts;
  /** Opens a screen on top of this one (Back returns here). */
  open(screen: Screen): void;
  /** Opens a screen in place of the whole stack (the tabs; after an order is placed). */
  reset(screen: Screen): void;
  back(): void;
  /** Asks for the catalogue again (stock changes once an order is placed). */
  refreshCatalogue(): void;
};

export const StorefrontContext = createContext<Storefront | null>(null);

/**
 * Before the catalogue: the words of the first guess at the customer's language (texts.ts
 * firstLanguage), null while its dictionary loads (the loading state then shows no words rather
 * than English that turns into German a moment later).
 */
export const FirstTextsContext = createContext<Texts | null>(null);

export function useStorefront(): Storefront {
  const storefront = useContext(StorefrontContext);
  if (!storefront) throw new Error("useStorefront outside the storefront");
  return storefront;
}
