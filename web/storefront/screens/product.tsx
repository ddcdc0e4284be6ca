import { useState } from "react";
import type { StorefrontProduct, StorefrontVariant } from "../../../contract/storefront";
import { cart, formatMoney, MAX_QUANTITY, useCart } from "../cart";
import { useStorefront } from "../context";
import { haptic } from "../telegram";
import { Button, cx, PrimaryAction, Problem, QuantityStepper, ScreenTitle, StockLabel } from "../ui";

// A product: its photos, one picker per option (values no variant in stock offers are marked and
// cannot be picked), the chosen variant's price and stock, a quantity, and Add to cart.

type Choice = Record<string, string>;

const matches = (variant: StorefrontVariant, choice: Choice) => Object.entries(choice).every(([option, value]) => variant.optionValues[option] === value);

/** Whether a value can be picked given the other choices: some variant in stock has it; "sold-out" when only sold-out ones do. */
function valueState(product: StorefrontProduct, choice: Choice, option: string, value: string): "available" | "sold-out" | "none" {
  const candidates = product.variants.filter((variant) => matches(variant, { ...choice, [option]: value }));
  if (!candidates.length) return "none";
  return candidates.some((variant) => variant.stockState !== "out_of_stock") ? "available" : "sold-out";
}

export function ProductScreen({ productId }: { productId: string }) {
  const { catalogue, texts, open } = useStorefront();
  const product = catalogue.products.find((candidate) => candidate.id === productId);
  const hasOptions = Boolean(product?.options.length);
  const [choice, setChoice] = useState<Choice>({});
  const [quantity, setQuantity] = useState(1);
  const [photo, setPhoto] = useState(0);
  const [said, setSaid] = useState<{ text: string; problem: boolean } | null>(null);
  const cartLines = useCart();

  if (!product) return <Problem message={texts.loadFailed} />;

  const variant = hasOptions
    ? product.options.every((option) => choice[option.name]) ? (product.variants.find((candidate) => matches(candidate, choice)) ?? null) : null
    : (product.variants[0] ?? null);
  const photos = [...new Set([...(variant?.imageUrl ? [variant.imageUrl] : []), ...product.imageUrls])];
  const shownPhoto = Math.min(photo, Math.max(photos.length - 1, 0));
  const inCart = variant ? (cartLines.find((line) => line.variantId === variant.id)?.quantity ?? 0) : 0;
  const limit = variant?.stockState === "low_stock" && variant.left !== null ? Math.max(variant.left - inCart, 0) : MAX_QUANTITY - inCart;
  const soldOut = variant?.stockState === "out_of_stock" || (variant !== null && limit <= 0);

  const pick = (option: string, value: string) => {
    setChoice((current) => ({ ...current, [option]: value }));
    setQuantity(1);
    setSaid(null);
    setPhoto(0);
  };

  const addToCart = () => {
    if (!variant) {
      haptic.error();
      setSaid({ text: texts.chooseOptionsFirst, problem: true });
      return;
    }
    if (soldOut) return;
    const added = Math.min(quantity, limit);
    if (!cart.add(product.id, variant.id, added)) {
      haptic.error();
      setSaid({ text: texts.loadFailed, problem: true });
      return;
    }
    haptic.added();
    setQuantity(1);
    setSaid({ text: added < quantity ? texts.notEnoughStock(limit) : texts.addedToCart, problem: false });
  };

  return (
    <>
      {photos.length > 0 && (
        <div className="-mx-4 -mt-4 mb-3">
          <div className="aspect-square w-full bg-muted">
            <img src={photos[shownPhoto]} alt={texts.photoOf(product.name, shownPhoto + 1, photos.length)} className="size-full object-contain" />
          </div>
          {photos.length > 1 && (
            <div className="flex gap-2 overflow-x-auto px-4 pt-2">
              {photos.map((url, index) => (
                <button
                  key={url}
                  type="button"
                  aria-label={texts.showPhoto(index + 1)}
                  aria-pressed={index === shownPhoto}
                  onClick={() => setPhoto(index)}
                  className={cx("size-14 shrink-0 overflow-hidden rounded-md border-2", index === shownPhoto ? "border-primary" : "border-transparent")}
                >
                  <img src={url} alt="" className="size-full object-cover" />
                </button>
              ))}
            </div>
          )}
        </div>
      )}

      <ScreenTitle>{product.name}</ScreenTitle>
      <p className="text-lg font-semibold" data-testid="product-price">
        {formatMoney(variant?.price ?? product.price)}
      </p>
      <div className="mb-3" data-testid="product-stock">
        {variant ? <StockLabel state={variant.stockState} left={variant.left} /> : <StockLabel state={product.stockState} left={null} />}
      </div>
      {product.description && <p className="mb-4 whitespace-pre-line text-sm">{product.description}</p>}

      {product.options.map((option) => (
        <fieldset key={option.name} className="mb-4">
          <legend className="mb-2 text-sm font-medium">{texts.choose(option.name)}</legend>
          <div className="flex flex-wrap gap-2">
            {option.values.map((value) => {
              const state = valueState(product, Object.fromEntries(Object.entries(choice).filter(([name]) => name !== option.name)), option.name, value);
              const chosen = choice[option.name] === value;
              return (
                <label
                  key={value}
                  className={cx(
                    "relative inline-flex min-h-11 cursor-pointer items-center rounded-md border px-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
                    chosen ? "border-primary bg-primary text-primary-foreground" : "border-input bg-card",
                    state !== "available" && "cursor-not-allowed opacity-60 line-through",
                  )}
                >
                  <input
                    type="radio"
                    name={`${product.id}-${option.name}`}
                    value={value}
                    checked={chosen}
                    disabled={state !== "available"}
                    onChange={() => pick(option.name, value)}
                    className="sr-only"
                  />
                  {value}
                  {state !== "available" && <span className="sr-only">{` (${state === "sold-out" ? texts.outOfStock : texts.unavailable})`}</span>}
                </label>
              );
            })}
          </div>
        </fieldset>
      ))}

      {product.bulkPricing && product.bulkPricing.length > 0 && (
        <div className="mb-4 rounded-md bg-muted p-3 text-sm">
          <p className="font-medium">{texts.bulkTitle}</p>
          <ul>
            {product.bulkPricing.map((tier) => (
              <li key={tier.minQuantity}>{texts.bulkTier(tier.minQuantity, formatMoney(tier.price))}</li>
            ))}
          </ul>
        </div>
      )}

      {!soldOut && (
        <div className="mb-2 flex items-center gap-3">
          <span aria-hidden className="text-sm font-medium">
            {texts.quantity}
          </span>
          <QuantityStepper value={Math.min(quantity, Math.max(limit, 1))} onChange={setQuantity} max={Math.max(limit, 1)} label={texts.quantity} />
        </div>
      )}

      <div role="status" className="min-h-6 text-sm">
        {said && (
          <span className={said.problem ? "text-destructive" : undefined}>
            {said.text}{" "}
            {!said.problem && (
              <Button variant="ghost" className="min-h-8 px-1 text-link underline" onClick={() => open({ name: "cart" })}>
                {texts.cartTitle}
              </Button>
            )}
          </span>
        )}
      </div>

      <PrimaryAction text={soldOut ? texts.outOfStock : texts.addToCart} onClick={addToCart} disabled={soldOut} />
    </>
  );
}
