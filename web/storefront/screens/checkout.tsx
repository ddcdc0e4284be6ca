import { useEffect, useId, useRef, useState } from "react";
import { ShippingAddressSchema } from "../../../contract/orders";
import { sealAddress } from "../../../contract/owner-seal";
import type { StorefrontOrder, StorefrontOrderInput, StorefrontPayment, StorefrontQuote } from "../../../contract/storefront";
import { StorefrontError } from "../api";
import { cart, formatMoney, lineInputs, resolveLines, useCart } from "../cart";
import { useStorefront } from "../context";
import { orderIds } from "../order-ids";
import { haptic } from "../telegram";
import { Button, Card, cx, FieldError, PrimaryAction, Problem, ScreenTitle, Spinner } from "../ui";

// Checkout: the address (checked with the contract's ShippingAddressSchema, the bot's own rule; its
// refusals in the customer's words), postage, the coin, a coupon; the server's quote shows what will
// be charged, and its total goes back with the order (quotedTotal) so nothing else is. The order's id
// is chosen here (order-ids.ts), so a retry after a lost answer finds the order instead of making a
// second one. While owner-only addresses are on, the address is sealed here to the owner's key
// (contract/owner-seal.ts) for that id: this server never reads it (docs/decisions/0025-owner-only-addresses.md).

type AddressField = "name" | "streetAddress" | "postcode" | "contact";
const ADDRESS_FIELDS: AddressField[] = ["name", "streetAddress", "postcode", "contact"];
type Errors = Partial<Record<AddressField | "postage" | "coin" | "coupon", string>>;

const remembered: Record<AddressField, string> = { name: "", streetAddress: "", postcode: "", contact: "" };

export function CheckoutScreen() {
  const { catalogue, texts, api, reset, refreshCatalogue } = useStorefront();
  const lines = resolveLines(useCart(), catalogue.products);
  const items = lineInputs(lines);
  const itemsKey = JSON.stringify(items);

  const [address, setAddress] = useState(remembered);
  const [postageOptionId, setPostageOptionId] = useState<string | null>(catalogue.postageOptions[0]?.id ?? null);
  const [coin, setCoin] = useState(catalogue.coins[0] ?? null);
  const [couponInput, setCouponInput] = useState("");
  const [appliedCoupon, setAppliedCoupon] = useState<string | null>(null);
  const [quote, setQuote] = useState<StorefrontQuote | null>(null);
  /**
   * Why there is no quote: `refused` when the shop answered with its sentence. Checkout follows the
   * same rules, so the order cannot be placed as it stands (the customer already has 3 orders waiting
   * for payment, an item sold out, ...): said above the form, and Place order is off until a quote succeeds.
   */
  const [quoteError, setQuoteError] = useState<{ message: string; refused: boolean } | null>(null);
  const [applying, setApplying] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [placing, setPlacing] = useState(false);
  const [placeError, setPlaceError] = useState<string | null>(null);
  const latestQuote = useRef(0);
  const ids = { form: useId(), coupon: useId(), postage: useId(), coin: useId() };

  const requestQuote = async (couponCode: string | null) => {
    const ticket = ++latestQuote.current;
    const answer = await api.quote({ items: JSON.parse(itemsKey) as typeof items, postageOptionId, coin: coin ?? undefined, couponCode: couponCode ?? undefined });
    if (ticket === latestQuote.current) setQuote(answer);
    return answer;
  };

  /** Prices the order as it stands; a failure is kept to show unless a later quote was asked for meanwhile. */
  const refreshQuote = () => {
    setQuoteError(null);
    const ticket = latestQuote.current + 1; // the one requestQuote takes
    requestQuote(appliedCoupon).catch((error: unknown) => {
      if (ticket !== latestQuote.current) return;
      setQuoteError({ message: error instanceof Error ? error.message : texts.loadFailed, refused: error instanceof StorefrontError && error.answered });
    });
  };

  // The quote follows the cart, the postage and the coin (the coupon once applied).
  useEffect(() => {
    if (itemsKey === "[]") return;
    refreshQuote();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refreshQuote reads exactly these
  }, [itemsKey, postageOptionId, coin, appliedCoupon]);

  if (!lines.length) {
    return (
      <>
        <ScreenTitle>{texts.checkoutTitle}</ScreenTitle>
        <p className="py-6 text-center text-muted-foreground">{texts.cartEmpty}</p>
        <div className="text-center">
          <Button onClick={() => reset({ name: "catalogue" })}>{texts.browse}</Button>
        </div>
      </>
    );
  }

  const setField = (field: AddressField, value: string) => {
    const next = { ...address, [field]: value };
    setAddress(next);
    Object.assign(remembered, next);
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const applyCoupon = async () => {
    const code = couponInput.trim();
    if (!code) return;
    setApplying(true);
    setErrors((current) => ({ ...current, coupon: undefined }));
    try {
      const answer = await requestQuote(code);
      if (answer.coupon) {
        setAppliedCoupon(answer.coupon.code);
        setCouponInput("");
      } else {
        haptic.error();
        setErrors((current) => ({ ...current, coupon: texts.couponNotApplied }));
      }
    } catch (error) {
      haptic.error();
      setErrors((current) => ({ ...current, coupon: error instanceof Error ? error.message : texts.loadFailed }));
      void requestQuote(appliedCoupon).catch(() => {});
    } finally {
      setApplying(false);
    }
  };

  const placeOrder = async () => {
    if (placing) return;
    setPlaceError(null);
    const checked = ShippingAddressSchema.safeParse(address);
    const found: Errors = {};
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        // The contract's rule in the customer's words: a field left empty, or one too long.
        const field = issue.path[0] as AddressField;
        found[field] ??= issue.code === "too_big" ? texts.fieldTooLong(texts[field], Number(issue.maximum)) : texts.fieldRequired(texts[field]);
      }
    }
    if (catalogue.postageOptions.length && !postageOptionId) found.postage = texts.choosePostage;
    if (!coin) found.coin = catalogue.coins.length ? texts.chooseCoin : texts.noCoins;
    setErrors(found);
    if (!checked.success || found.postage || found.coin || !coin) {
      haptic.error();
      const firstField = ADDRESS_FIELDS.find((field) => found[field]);
      if (firstField) document.getElementById(`${ids.form}-${firstField}`)?.focus();
      return;
    }
    setPlacing(true);
    // The same order (these lines, this total) keeps its id until the shop answers for it (order-ids.ts).
    const attempt = orderIds.attempt(JSON.stringify([items, quote?.total ?? null]));
    try {
      const order: StorefrontOrderInput = {
        items,
        postageOptionId,
        coin,
        couponCode: appliedCoupon ?? undefined,
        quotedTotal: quote?.total,
        orderId: attempt.id,
      };
      if (catalogue.ownerPublicKey) {
        order.sealedAddress = await sealAddress({ publicKey: catalogue.ownerPublicKey }, checked.data, attempt.id);
      } else {
        order.address = checked.data;
      }
      orderIds.sending(attempt.id);
      const placed = await api.placeOrder(order);
      orderIds.settled(attempt.id);
      showPlaced(placed.order, placed.payment);
    } catch (error) {
      const answered = error instanceof StorefrontError && error.answered;
      if (answered && attempt.retry) {
        // An earlier attempt's answer was lost: this refusal may be that order's own doing (its id is
        // taken, its stock reserved). If the customer has an order of this id, it is the one they placed.
        const made = await api.order(attempt.id).catch(() => null);
        if (made) {
          orderIds.settled(attempt.id);
          showPlaced(made, made.payment);
          return;
        }
      }
      if (answered) orderIds.settled(attempt.id);
      haptic.error();
      if (error instanceof StorefrontError && error.status === 409) {
        // The total or the stock moved, or the customer's orders waiting for payment filled up: the quote says what now.
        refreshQuote();
        refreshCatalogue();
      }
      setPlaceError(error instanceof StorefrontError && error.status === 409 && !error.message ? texts.totalChanged : error instanceof Error ? error.message : texts.loadFailed);
      setPlacing(false);
    }
  };

  /** The order is made: on to paying it; one no longer waiting for a payment (it failed, or was paid meanwhile) is shown in My Orders. */
  const showPlaced = (order: StorefrontOrder, payment: StorefrontPayment | null) => {
    // A failed order gave its items back: the cart keeps them for another try, as the bot's does.
    if (order.status === "failed") {
      haptic.error();
    } else {
      haptic.success();
      cart.clear();
    }
    reset(payment ? { name: "payment", checkout: { order, payment } } : { name: "orders" });
    refreshCatalogue();
  };

  const field = (name: AddressField, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => {
    const id = `${ids.form}-${name}`;
    return (
      <div>
        <label htmlFor={id} className="mb-1 block text-sm font-medium">
          {label}
        </label>
        <input
          id={id}
          value={address[name]}
          onChange={(event) => setField(name, event.target.value)}
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={errors[name] ? `${id}-error` : undefined}
          className={cx("min-h-11 w-full rounded-md border bg-card px-3 text-base", errors[name] ? "border-destructive" : "border-input")}
          {...props}
        />
        <FieldError id={`${id}-error`} message={errors[name]} />
      </div>
    );
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void placeOrder();
      }}
    >
      <ScreenTitle>{texts.checkoutTitle}</ScreenTitle>
      {/* Before the form: a customer who cannot order hears it before typing an address. */}
      {quoteError?.refused && <Problem message={quoteError.message} onRetry={refreshQuote} />}

      <Card className="mb-4 grid gap-3" aria-labelledby={`${ids.form}-delivery`}>
        <h2 id={`${ids.form}-delivery`} className="font-semibold">
          {texts.deliveryTitle}
        </h2>
        {field("name", texts.name, { autoComplete: "name" })}
        {field("streetAddress", texts.streetAddress, { autoComplete: "street-address" })}
        {field("postcode", texts.postcode, { autoComplete: "postal-code" })}
        {field("contact", texts.contact, { autoComplete: "tel" })}
        {catalogue.ownerPublicKey && <p className="text-sm text-muted-foreground">{texts.privateAddress}</p>}
      </Card>

      {catalogue.postageOptions.length > 0 && (
        <Card className="mb-4">
          <fieldset aria-describedby={errors.postage ? ids.postage : undefined}>
            <legend className="mb-2 font-semibold">{texts.postageTitle}</legend>
            <div className="grid gap-2">
              {catalogue.postageOptions.map((option) => (
                <label key={option.id} className="flex min-h-11 cursor-pointer items-start gap-3 rounded-md border border-input p-3 has-[:checked]:border-primary">
                  <input type="radio" name="postage" className="mt-1 accent-primary" checked={postageOptionId === option.id} onChange={() => setPostageOptionId(option.id)} />
                  <span className="flex-1">
                    <span className="flex justify-between gap-2">
                      <span className="font-medium">{option.name}</span>
                      <span className="tabular-nums">{formatMoney(option.price)}</span>
                    </span>
                    {(option.description || option.estimatedDays !== null) && (
                      <span className="block text-sm text-muted-foreground">
                        {[option.description, option.estimatedDays !== null ? texts.estimatedDays(option.estimatedDays) : null].filter(Boolean).join(" · ")}
                      </span>
                    )}
                  </span>
                </label>
              ))}
            </div>
            <FieldError id={ids.postage} message={errors.postage} />
          </fieldset>
        </Card>
      )}

      <Card className="mb-4">
        <fieldset aria-describedby={errors.coin ? ids.coin : undefined}>
          <legend className="mb-2 font-semibold">{texts.coinTitle}</legend>
          {catalogue.coins.length ? (
            <div className="flex flex-wrap gap-2">
              {catalogue.coins.map((option) => (
                <label key={option} className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-input px-3 has-[:checked]:border-primary">
                  <input type="radio" name="coin" className="accent-primary" checked={coin === option} onChange={() => setCoin(option)} />
                  {option}
                </label>
              ))}
            </div>
          ) : (
            <p className="text-sm text-destructive">{texts.noCoins}</p>
          )}
          <FieldError id={ids.coin} message={errors.coin} />
        </fieldset>
      </Card>

      <Card className="mb-4">
        <label htmlFor={ids.coupon} className="mb-1 block font-semibold">
          {texts.couponLabel}
        </label>
        {appliedCoupon ? (
          <p className="flex items-center justify-between gap-2 text-sm">
            <span role="status">{texts.couponApplied(appliedCoupon)}</span>
            <Button variant="ghost" className="min-h-9 px-2" onClick={() => setAppliedCoupon(null)}>
              {texts.removeCoupon}
            </Button>
          </p>
        ) : (
          <>
            <div className="flex gap-2">
              <input
                id={ids.coupon}
                value={couponInput}
                onChange={(event) => setCouponInput(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === "Enter") {
                    event.preventDefault();
                    void applyCoupon();
                  }
                }}
                autoCapitalize="characters"
                aria-invalid={errors.coupon ? true : undefined}
                aria-describedby={errors.coupon ? `${ids.coupon}-error` : undefined}
                className={cx("min-h-11 min-w-0 flex-1 rounded-md border bg-card px-3 text-base uppercase", errors.coupon ? "border-destructive" : "border-input")}
              />
              <Button onClick={() => void applyCoupon()} disabled={applying || !couponInput.trim()}>
                {applying && <Spinner />}
                {texts.apply}
              </Button>
            </div>
            <FieldError id={`${ids.coupon}-error`} message={errors.coupon} />
          </>
        )}
      </Card>

      {!quoteError?.refused && (
        <Card className="mb-2" aria-labelledby={`${ids.form}-summary`}>
          <h2 id={`${ids.form}-summary`} className="mb-2 font-semibold">
            {texts.summaryTitle}
          </h2>
          {quoteError ? (
            <Problem message={quoteError.message} onRetry={refreshQuote} />
          ) : !quote ? (
            <p role="status" className="flex items-center gap-2 text-muted-foreground">
              <Spinner />
              {texts.loading}
            </p>
          ) : (
            <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm" data-testid="quote">
              {quote.lines.map((line) => (
                <div key={line.variantId} className="contents">
                  <dt className="break-words">{texts.quantityTimes(line.quantity, line.name)}</dt>
                  <dd className="text-right tabular-nums">{formatMoney(line.lineTotal)}</dd>
                </div>
              ))}
              <dt className="border-t pt-1">{texts.itemsTotal}</dt>
              <dd className="border-t pt-1 text-right tabular-nums">{formatMoney(quote.itemsTotal)}</dd>
              {quote.coupon && (
                <>
                  <dt>{texts.discount(quote.coupon.code)}</dt>
                  <dd className="text-right tabular-nums" data-testid="quote-discount">
                    −{formatMoney(quote.coupon.discount)}
                  </dd>
                </>
              )}
              {quote.postage && (
                <>
                  <dt>{`${texts.postage}: ${quote.postage.name}`}</dt>
                  <dd className="text-right tabular-nums">{formatMoney(quote.postage.price)}</dd>
                </>
              )}
              <dt className="border-t pt-1 text-base font-semibold">{texts.total}</dt>
              <dd className="border-t pt-1 text-right text-base font-semibold tabular-nums" data-testid="quote-total">
                {formatMoney(quote.total)}
              </dd>
            </dl>
          )}
        </Card>
      )}

      {Object.values(errors).some(Boolean) && (
        <p role="alert" className="my-3 text-sm text-destructive">
          {texts.fixErrors}
        </p>
      )}
      {placeError && <Problem message={placeError} />}
      <PrimaryAction text={texts.placeOrder} onClick={() => void placeOrder()} busy={placing} disabled={!catalogue.coins.length || quoteError?.refused === true} />
    </form>
  );
}
