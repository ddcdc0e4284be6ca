import { useCallback, useEffect, useMemo, useState } from "react";
import type { Language } from "../../contract/languages";
import type { StorefrontCatalogue } from "../../contract/storefront";
import { createStorefrontApi, StorefrontError } from "./api";
import { cart, useCart } from "./cart";
import { FirstTextsContext, StorefrontContext, type Screen, type Storefront } from "./context";
import { CartScreen } from "./screens/cart";
import { CatalogueScreen } from "./screens/catalogue";
import { CheckoutScreen } from "./screens/checkout";
import { OrdersScreen } from "./screens/orders";
import { PaymentScreen } from "./screens/payment";
import { ProductScreen } from "./screens/product";
import { SupportScreen } from "./screens/support";
import { showBackButton, type Launch } from "./telegram";
import { englishTexts, loadTexts, type Texts } from "./texts";
import { Button, cx, Loading, Problem } from "./ui";

// The storefront Mini App (issue 27; docs/decisions/0039-mini-app-storefront.md): the catalogue
// once per launch, then screens on a stack. Telegram's Back Button (or, in a plain tab, the Back
// link in the header) pops the stack; the tabs start a new one. The catalogue names the customer's
// language; the first screen waits for its words too, so it never shows English and then German.
// Before it answers, the page speaks the first guess at the customer's language (texts.ts
// firstLanguage), once that language's words have come: no English that turns German a moment later.

/** The words of `language`: at once for English, once its dictionary has come for the others (null until then). */
function useTextsOf(language: Language): Texts | null {
  const [texts, setTexts] = useState<Texts | null>(language === "en" ? englishTexts : null);
  useEffect(() => {
    let current = true;
    void loadTexts(language).then((loaded) => {
      if (current) setTexts(loaded);
    });
    return () => {
      current = false;
    };
  }, [language]);
  return texts;
}

/** The language of words loaded for `language`: English when its dictionary could not be fetched (texts.ts loadTexts). */
const languageOfTexts = (texts: Texts, language: Language): Language => (texts === englishTexts ? "en" : language);

/** The page's language is that of the words it shows, for screen readers, hyphenation and the browser's translate offer. */
function usePageLanguage(language: Language | null) {
  useEffect(() => {
    if (language) document.documentElement.lang = language;
  }, [language]);
}

export function OutsideTelegram({ language }: { language: Language }) {
  const texts = useTextsOf(language);
  usePageLanguage(texts && languageOfTexts(texts, language));
  if (!texts) return null;
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center gap-3 p-6 text-center">
      <h1 className="text-xl font-semibold">{texts.outsideTelegramTitle}</h1>
      <p className="text-muted-foreground">{texts.outsideTelegramBody}</p>
    </main>
  );
}

/** What a failed catalogue call says: the shop's own sentence when it answered with one, else ours in the words shown. */
function loadFailure(error: unknown, texts: Texts): string {
  if (error instanceof StorefrontError && error.answered) return error.message;
  return error instanceof StorefrontError && error.status === 0 ? texts.networkError : texts.loadFailed;
}

const TABS = [
  { screen: "catalogue", label: "navShop" },
  { screen: "cart", label: "navCart" },
  { screen: "orders", label: "navOrders" },
  { screen: "support", label: "navSupport" },
] as const;

/** `language`: the first guess at the customer's (texts.ts firstLanguage), until the catalogue names it. */
export function App({ launch, language: firstLanguage }: { launch: Launch; language: Language }) {
  const api = useMemo(() => createStorefrontApi(launch.initData, { network: englishTexts.networkError, failed: englishTexts.loadFailed }), [launch.initData]);
  const firstTexts = useTextsOf(firstLanguage);
  const [loaded, setLoaded] = useState<{ catalogue: StorefrontCatalogue; texts: Texts } | null>(null);
  const [loadError, setLoadError] = useState<{ error: unknown } | null>(null);
  const [stack, setStack] = useState<Screen[]>([{ name: "catalogue" }]);
  const cartLines = useCart();

  const fetchCatalogue = useCallback(() => {
    return api.catalogue().then(
      async (answer) => {
        const texts = await loadTexts(answer.language);
        api.setFallbackMessages({ network: texts.networkError, failed: texts.loadFailed });
        setLoaded({ catalogue: answer, texts });
        // What the shop no longer sells leaves the cart kept from an earlier launch.
        cart.keepOnly((line) => answer.products.some((product) => product.id === line.productId && product.variants.some((variant) => variant.id === line.variantId)));
      },
      (error: unknown) => setLoadError({ error }),
    );
  }, [api]);
  useEffect(() => {
    void fetchCatalogue();
  }, [fetchCatalogue]);
  const retry = () => {
    setLoadError(null);
    void fetchCatalogue();
  };

  const screen = stack.at(-1)!;
  const back = useCallback(() => setStack((current) => (current.length > 1 ? current.slice(0, -1) : current)), []);
  const storefront: Storefront | null = useMemo(
    () =>
      loaded && {
        launch,
        api,
        catalogue: loaded.catalogue,
        texts: loaded.texts,
        open: (next) => setStack((current) => [...current, next]),
        reset: (next) => setStack([next]),
        back,
        refreshCatalogue: () => void fetchCatalogue(),
      },
    [loaded, launch, api, back, fetchCatalogue],
  );

  // Telegram's Back Button while there is somewhere to go back to.
  const canGoBack = stack.length > 1;
  useEffect(() => (launch.insideTelegram && canGoBack ? showBackButton(back) : undefined), [launch.insideTelegram, canGoBack, back]);

  usePageLanguage(loaded ? languageOfTexts(loaded.texts, loaded.catalogue.language) : firstTexts && languageOfTexts(firstTexts, firstLanguage));

  // Each new screen: to its top, and its title focused, so a screen reader says where it is.
  useEffect(() => {
    window.scrollTo(0, 0);
    document.querySelector<HTMLElement>("[data-screen-title]")?.focus({ preventScroll: true });
  }, [stack]);

  if (!storefront) {
    return (
      <FirstTextsContext.Provider value={firstTexts}>
        <main className="mx-auto max-w-lg p-4">{loadError && firstTexts ? <Problem message={loadFailure(loadError.error, firstTexts)} onRetry={retry} /> : <Loading />}</main>
      </FirstTextsContext.Provider>
    );
  }
  const { texts } = storefront;
  const cartCount = cartLines.reduce((sum, line) => sum + line.quantity, 0);
  const activeTab = stack[0]!.name;

  return (
    <StorefrontContext.Provider value={storefront}>
      <header className="sticky top-0 z-10 border-b bg-card/95 backdrop-blur">
        <nav aria-label={texts.navLabel} className="mx-auto flex max-w-lg items-stretch gap-1 px-2">
          {!launch.insideTelegram && canGoBack && (
            <Button variant="ghost" className="px-2" onClick={back} aria-label={texts.back}>
              ←
            </Button>
          )}
          {TABS.map((tab) => (
            <button
              key={tab.screen}
              type="button"
              aria-current={activeTab === tab.screen && stack.length === 1 ? "page" : undefined}
              onClick={() => setStack([{ name: tab.screen }])}
              className={cx(
                "min-h-11 flex-1 border-b-2 px-1 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-ring",
                activeTab === tab.screen ? "border-primary text-foreground" : "border-transparent text-muted-foreground",
              )}
            >
              {texts[tab.label]}
              {tab.screen === "cart" && cartCount > 0 && (
                <span className="ml-1 rounded-full bg-primary px-1.5 text-xs text-primary-foreground" aria-label={`(${texts.cartCount(cartCount)})`} data-testid="cart-count">
                  {cartCount}
                </span>
              )}
            </button>
          ))}
        </nav>
      </header>
      <main className="mx-auto max-w-lg px-4 pt-4 pb-6">
        <CurrentScreen screen={screen} />
      </main>
    </StorefrontContext.Provider>
  );
}

function CurrentScreen({ screen }: { screen: Screen }) {
  switch (screen.name) {
    case "catalogue":
      return <CatalogueScreen />;
    case "product":
      return <ProductScreen key={screen.productId} productId={screen.productId} />;
    case "cart":
      return <CartScreen />;
    case "checkout":
      return <CheckoutScreen />;
    case "payment":
      return <PaymentScreen key={screen.checkout.order.id} checkout={screen.checkout} />;
    case "orders":
      return <OrdersScreen />;
    case "support":
      return <SupportScreen />;
  }
}
