import { cart, formatMoney, formatPence, MAX_QUANTITY, resolveLines, unitPence, useCart } from "../cart";
import { useStorefront } from "../context";
import { Button, Card, PrimaryAction, QuantityStepper, ScreenTitle } from "../ui";

// The cart: each line with its quantity and price (a bulk tier reached shows as such), removal, and
// the items' total before postage and coupons, which the checkout's quote adds.

export function CartScreen() {
  const { catalogue, texts, open, reset } = useStorefront();
  const lines = resolveLines(useCart(), catalogue.products);
  const priced = lines.map((line) => ({ line, ...unitPence(line, lines) }));
  const itemsTotal = priced.reduce((sum, { line, pence }) => sum + pence * line.quantity, 0);

  if (!lines.length) {
    return (
      <>
        <ScreenTitle>{texts.cartTitle}</ScreenTitle>
        <p className="py-6 text-center text-muted-foreground">{texts.cartEmpty}</p>
        <div className="text-center">
          <Button onClick={() => reset({ name: "catalogue" })}>{texts.browse}</Button>
        </div>
      </>
    );
  }

  return (
    <>
      <ScreenTitle>{texts.cartTitle}</ScreenTitle>
      <ul className="grid gap-3" aria-label={texts.cartTitle}>
        {priced.map(({ line, pence, tier }) => {
          const name = line.variant.label ? `${line.product.name} (${line.variant.label})` : line.product.name;
          const max = line.variant.stockState === "low_stock" && line.variant.left !== null ? Math.max(line.variant.left, line.quantity) : MAX_QUANTITY;
          const nextTier = (line.product.bulkPricing ?? []).find((candidate) => candidate.minQuantity > (tier?.minQuantity ?? 0));
          return (
            <li key={line.variantId}>
              <Card className="flex gap-3 p-3" aria-label={name}>
                {(line.variant.imageUrl ?? line.product.imageUrls[0]) && (
                  <img src={line.variant.imageUrl ?? line.product.imageUrls[0]} alt="" className="size-16 shrink-0 rounded-md object-cover" />
                )}
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words">{name}</p>
                  <p className="text-sm text-muted-foreground">{tier ? texts.bulkApplied(formatPence(pence)) : texts.each(formatPence(pence))}</p>
                  {nextTier && <p className="text-xs text-muted-foreground">{texts.bulkNext(nextTier.minQuantity, formatMoney(nextTier.price))}</p>}
                  <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                    <QuantityStepper value={line.quantity} max={max} onChange={(quantity) => cart.setQuantity(line.variantId, quantity)} label={`${texts.quantity}: ${name}`} />
                    <span className="font-semibold tabular-nums">{formatPence(pence * line.quantity)}</span>
                  </div>
                  <Button variant="ghost" className="mt-1 min-h-9 px-2 text-destructive" aria-label={texts.remove(name)} onClick={() => cart.remove(line.variantId)}>
                    {texts.removeShort}
                  </Button>
                </div>
              </Card>
            </li>
          );
        })}
      </ul>
      <div className="mt-4 flex items-baseline justify-between text-lg">
        <span>{texts.itemsTotal}</span>
        <span className="font-semibold tabular-nums" data-testid="cart-items-total">
          {formatPence(itemsTotal)}
        </span>
      </div>
      <p className="text-sm text-muted-foreground">{texts.totalAtCheckout}</p>
      <PrimaryAction text={texts.checkout} onClick={() => open({ name: "checkout" })} />
    </>
  );
}
