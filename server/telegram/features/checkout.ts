import { Composer, InlineKeyboard } from "grammy";
import {
  assertMayOrderMore,
  getCart,
  coinsOnOffer,
  checkout,
  CouponRefusedError,
  PAYMENTS_UNAVAILABLE,
  quoteCheckout,
  type CheckoutQuote,
  checkAddressField,
} from "../../shop/ordering";
import { IDLE, replaceConversation, saveConversation, type CheckoutDraft, type CheckoutStage, type ConversationState } from "../../shop/customers";
import { ShopError, UUID_SOURCE } from "../../shop/common";
import { paymentDeadline } from "../../shop/orders";
import { listPostageOptions, type PostageRow, toPence } from "../../shop/catalogue";
import type { BotContext } from "../context";
import { sendPaymentRequest } from "../payment-message";
import { itemDisplayName } from "../../../contract";
import { localizedName, translatedProductNames } from "../../shop/languages";
import { coinLabel, data, EN, label, notice, say, shortId, show } from "../ui";
import { removalNotes, showCart } from "./cart";

// Checkout: name -> street address -> postcode -> optional contact -> postage -> coin -> summary
// -> the order and its payment. From the summary, "🏷 Add a coupon" asks for a code (the coupon
// stage); the code lives in the draft until Confirm, and every quote checks it again. Each step is stored (bot_conversations) before it is shown, so a
// restart or another server instance carries on at the same step. Any step can be cancelled.
// Prices come from the shop (quoteCheckout); the summary's total is kept in the draft, and
// Confirm charges exactly that total or shows the new summary instead.

type CheckoutState = Extract<ConversationState, { step: "checkout" }>;

export const ADD_COUPON_BUTTON = EN.t("checkout-add-coupon-button");
export const REMOVE_COUPON_BUTTON = EN.t("checkout-remove-coupon-button");

const UUID = UUID_SOURCE;

export const checkoutFeature = new Composer<BotContext>();

/** Each typed or button step's question: locale key checkout-<stage>. */
const prompt = (ctx: BotContext, stage: Exclude<CheckoutStage, "confirm">) => ctx.t(`checkout-${stage}`);

const cancelButton = (ctx: BotContext) => ctx.t("checkout-cancel-button");

function inCheckout(ctx: BotContext): CheckoutState | null {
  return ctx.conversation.step === "checkout" ? ctx.conversation : null;
}

async function activePostage(ctx: BotContext): Promise<PostageRow[]> {
  return (await listPostageOptions(ctx.deps.db)).filter((option) => option.isActive);
}

function postageLabel(ctx: BotContext, option: PostageRow) {
  const name = localizedName(option, ctx.language);
  const price = ctx.tr.price(toPence(option.price));
  return option.estimatedDays ? ctx.t("postage-option-days", { name, price, days: option.estimatedDays }) : ctx.t("postage-option", { name, price });
}

async function summaryText(ctx: BotContext, quote: CheckoutQuote, draft: CheckoutDraft): Promise<string> {
  const { tr, t } = ctx;
  const names = await translatedProductNames(ctx.deps.db, quote.lines.map((line) => line.productId), ctx.language);
  const items = quote.lines.map((line) =>
    t("summary-line", {
      quantity: line.quantity,
      name: names.has(line.productId) ? itemDisplayName(names.get(line.productId)!, line.variantLabel) : line.name,
      unit: tr.price(line.unitPence),
      total: tr.price(line.linePence),
    }),
  );
  const postage = quote.postage ? await postageName(ctx, quote.postage.id, quote.postage.name) : null;
  return [
    t("summary-title"),
    items.join("\n"),
    [
      t("summary-subtotal", { amount: tr.price(quote.itemsPence) }),
      ...(quote.coupon ? [t("summary-discount", { code: quote.coupon.code, amount: tr.price(quote.coupon.discountPence) })] : []),
      t("summary-postage", { postage: quote.postage ? t("postage-option", { name: postage!, price: tr.price(quote.postage.pricePence) }) : t("summary-postage-none") }),
      t("summary-total", { amount: tr.price(quote.totalPence) }),
    ].join("\n"),
    [t("summary-deliver-to"), draft.name, draft.streetAddress, draft.postcode, ...(draft.contact ? [t("summary-contact", { contact: draft.contact })] : [])].join("\n"),
    t("summary-pay-with", { coin: draft.coin ? coinLabel(draft.coin) : "-" }),
  ].join("\n\n");
}

/** The chosen postage option's name in the customer's language. */
async function postageName(ctx: BotContext, id: string, name: string): Promise<string> {
  const option = (await listPostageOptions(ctx.deps.db)).find((o) => o.id === id);
  return option ? localizedName(option, ctx.language) : name;
}

type RenderOptions = { problem?: string; fresh?: boolean };

/** The draft without its coupon: the customer removed it, or it stopped applying. */
function withoutCoupon(draft: CheckoutDraft): CheckoutDraft {
  const { couponCode: _removed, ...rest } = draft;
  return rest;
}

/**
 * The summary before Confirm, priced by the shop. Its total is stored in the draft, so Confirm
 * charges what the customer saw, or nothing. Lines that can no longer be bought leave the cart
 * first (getCart says which); a postage option or coin no longer offered sends them back to choose.
 */
async function showSummary(ctx: BotContext, state: CheckoutState, options: RenderOptions) {
  const out = options.fresh ? say : show;
  const cart = await getCart(ctx.deps.db, ctx.customerId, ctx.language);
  const notes = removalNotes(cart, ctx.tr);
  if (cart.lines.length === 0) {
    await ctx.setConversation(IDLE);
    const text = [options.problem, notes, ctx.t("cart-empty")].filter(Boolean).join("\n\n");
    return out(ctx, text, new InlineKeyboard().text(ctx.t("menu-browse"), data("cats:0")).text(ctx.t("main-menu-button"), data("menu")));
  }
  let quote: CheckoutQuote;
  try {
    quote = await quoteCheckout(ctx.deps, {
      telegramUserId: ctx.customerId,
      postageOptionId: state.draft.postageOptionId ?? null,
      coin: state.draft.coin,
      couponCode: state.draft.couponCode ?? null,
      language: ctx.language,
    });
  } catch (error) {
    if (error instanceof CouponRefusedError && state.draft.couponCode) {
      // The coupon no longer applies (used up, ended, the cart changed): the summary without it, saying why.
      const problem = ctx.t("coupon-no-longer-applies", { reason: ctx.tr.refusal(error) });
      return showSummary(ctx, { ...state, draft: withoutCoupon(state.draft) }, { ...options, problem: [options.problem, problem].filter(Boolean).join("\n\n") });
    }
    if (!(error instanceof ShopError)) throw error;
    return afterContact(ctx, state.draft, { ...options, problem: ctx.t("warning", { text: ctx.tr.refusal(error) }) });
  }
  const shown: CheckoutState = { step: "checkout", stage: "confirm", draft: { ...state.draft, quotedTotalPence: quote.totalPence } };
  await ctx.setConversation(shown);
  const keyboard = new InlineKeyboard().text(ctx.t("checkout-confirm-button"), data("co:ok")).row();
  if (quote.coupon) keyboard.text(ctx.t("checkout-remove-coupon-button"), data("co:uncoupon")).row();
  else keyboard.text(ctx.t("checkout-add-coupon-button"), data("co:coupon")).row();
  keyboard.text(cancelButton(ctx), data("co:cancel"));
  return out(ctx, [options.problem, notes, await summaryText(ctx, quote, shown.draft)].filter(Boolean).join("\n\n"), keyboard);
}

/** Shows the current step; `problem` (a re-prompt after bad input) comes first. */
async function render(ctx: BotContext, state: CheckoutState, options: RenderOptions = {}) {
  const out = options.fresh ? say : show;
  const withProblem = (text: string) => (options.problem ? `${options.problem}\n\n${text}` : text);
  const keyboard = new InlineKeyboard();
  switch (state.stage) {
    case "name":
    case "street":
    case "postcode":
      return out(ctx, withProblem(prompt(ctx, state.stage)), keyboard.text(cancelButton(ctx), data("co:cancel")));
    case "contact":
      keyboard.text(ctx.t("checkout-skip-button"), data("co:skip")).row().text(cancelButton(ctx), data("co:cancel"));
      return out(ctx, withProblem(prompt(ctx, "contact")), keyboard);
    case "postage":
      for (const option of await activePostage(ctx)) keyboard.text(label(postageLabel(ctx, option), 60), data(`co:post:${option.id}`)).row();
      keyboard.text(cancelButton(ctx), data("co:cancel"));
      return out(ctx, withProblem(prompt(ctx, "postage")), keyboard);
    case "coin": {
      // The accepted coins whose gateway can take them (issue 24: a coin given to BTCPay Server needs it connected).
      const coins = await coinsOnOffer(ctx.deps, ctx.settings);
      if (coins.length === 0) {
        // Nothing to pay with: say so rather than offer a coin the shop does not take.
        await ctx.setConversation(IDLE);
        return out(ctx, ctx.tr.say(PAYMENTS_UNAVAILABLE), new InlineKeyboard().text(ctx.t("menu-cart"), data("cart")).text(ctx.t("main-menu-button"), data("menu")));
      }
      for (const coin of coins) keyboard.text(coinLabel(coin), data(`co:coin:${coin}`)).row();
      keyboard.text(cancelButton(ctx), data("co:cancel"));
      return out(ctx, withProblem(prompt(ctx, "coin")), keyboard);
    }
    case "coupon":
      keyboard.text(ctx.t("checkout-back-to-summary-button"), data("co:back")).row().text(cancelButton(ctx), data("co:cancel"));
      return out(ctx, withProblem(prompt(ctx, "coupon")), keyboard);
    case "confirm":
      return showSummary(ctx, state, options);
  }
}

/**
 * The code the customer typed at the coupon stage: priced with it, and on to the summary with it
 * when it applies; otherwise the same question again, saying why (unknown, expired, used up, ...).
 */
async function applyTypedCoupon(ctx: BotContext, state: CheckoutState, typed: string) {
  try {
    const quote = await quoteCheckout(ctx.deps, {
      telegramUserId: ctx.customerId,
      postageOptionId: state.draft.postageOptionId ?? null,
      coin: state.draft.coin,
      couponCode: typed,
      language: ctx.language,
    });
    const draft = { ...state.draft, couponCode: quote.coupon!.code };
    return goTo(ctx, { step: "checkout", stage: "confirm", draft }, { fresh: true, problem: ctx.t("coupon-applied", { code: quote.coupon!.code }) });
  } catch (error) {
    if (error instanceof CouponRefusedError) return render(ctx, state, { problem: ctx.t("warning", { text: ctx.tr.refusal(error) }), fresh: true });
    if (!(error instanceof ShopError)) throw error;
    // Something else about the order changed (postage, coin, the cart): the summary says what.
    return goTo(ctx, { step: "checkout", stage: "confirm", draft: state.draft }, { fresh: true, problem: ctx.t("warning", { text: ctx.tr.refusal(error) }) });
  }
}

async function goTo(ctx: BotContext, state: CheckoutState, options: RenderOptions = {}) {
  await ctx.setConversation(state);
  await render(ctx, state, options);
}

/** After the contact step: the postage choice, or straight on to the coin when there is none to choose. */
async function afterContact(ctx: BotContext, draft: CheckoutDraft, options: RenderOptions) {
  if ((await activePostage(ctx)).length === 0) {
    return goTo(ctx, { step: "checkout", stage: "coin", draft: { ...draft, postageOptionId: null } }, options);
  }
  return goTo(ctx, { step: "checkout", stage: "postage", draft }, options);
}

// --- Cancel: the button here; /cancel, in every step, is features/commands.ts, ahead of the typed answers ---

export async function cancelCheckout(ctx: BotContext) {
  await ctx.setConversation(IDLE);
  await show(ctx, ctx.t("checkout-cancelled"), new InlineKeyboard().text(ctx.t("menu-cart"), data("cart")).text(ctx.t("main-menu-button"), data("menu")));
}

checkoutFeature.callbackQuery("co:cancel", async (ctx, next) => (inCheckout(ctx) ? cancelCheckout(ctx) : next()));

// --- Typed answers: validated, with a clear re-prompt when they do not fit ---

checkoutFeature.on("message", async (ctx, next) => {
  const state = inCheckout(ctx);
  if (!state) return next();
  const text = ctx.message.text;
  if (state.stage === "postage" || state.stage === "coin" || state.stage === "confirm") {
    return render(ctx, state, { problem: ctx.t("checkout-choose-button"), fresh: true });
  }
  // A command never gets here (features/commands.ts leaves the step first); other text starting
  // with "/" is no name or address.
  if (text === undefined || text.startsWith("/")) {
    return render(ctx, state, { problem: ctx.t("checkout-send-text"), fresh: true });
  }
  if (state.stage === "coupon") return applyTypedCoupon(ctx, state, text);
  const result = checkAddressField(state.stage, text);
  if ("problem" in result) return render(ctx, state, { problem: ctx.tr.say(result.customerText), fresh: true });
  const draft = state.draft;
  switch (state.stage) {
    case "name":
      return goTo(ctx, { step: "checkout", stage: "street", draft: { ...draft, name: result.value } }, { fresh: true });
    case "street":
      return goTo(ctx, { step: "checkout", stage: "postcode", draft: { ...draft, streetAddress: result.value } }, { fresh: true });
    case "postcode":
      return goTo(ctx, { step: "checkout", stage: "contact", draft: { ...draft, postcode: result.value } }, { fresh: true });
    case "contact":
      return afterContact(ctx, { ...draft, contact: result.value }, { fresh: true });
  }
});

// --- Buttons ---

checkoutFeature.callbackQuery("checkout", async (ctx) => {
  const cart = await getCart(ctx.deps.db, ctx.customerId, ctx.language);
  if (cart.lines.length === 0) {
    await notice(ctx, ctx.t("cart-empty"));
    return showCart(ctx, cart);
  }
  if ((await coinsOnOffer(ctx.deps, ctx.settings)).length === 0) {
    // Asking for an address first would waste the customer's time.
    await notice(ctx, ctx.tr.say(PAYMENTS_UNAVAILABLE), true);
    return showCart(ctx, cart);
  }
  try {
    // So is asking a customer who may not order more (docs/decisions/0040): they hear it now, the
    // cart kept. Confirm counts again, under the lock (checkout()).
    await assertMayOrderMore(ctx.deps.db, ctx.customerId);
  } catch (error) {
    if (!(error instanceof ShopError)) throw error;
    // The toast answers a second press too, when the cart's message already says it.
    await notice(ctx, ctx.tr.refusal(error));
    return showCart(ctx, cart, ctx.t("warning", { text: ctx.tr.refusal(error) }));
  }
  await goTo(ctx, { step: "checkout", stage: "name", draft: {} });
});


/** A checkout button from another step (an older message): say so and show the current step. */
async function stale(ctx: BotContext, state: CheckoutState) {
  await notice(ctx, ctx.t("checkout-stale-button"));
  await render(ctx, state, { fresh: true });
}

checkoutFeature.callbackQuery("co:skip", async (ctx, next) => {
  const state = inCheckout(ctx);
  if (!state) return next();
  if (state.stage !== "contact") return stale(ctx, state);
  await afterContact(ctx, { ...state.draft, contact: null }, {});
});

checkoutFeature.callbackQuery(new RegExp(`^co:post:(${UUID})$`), async (ctx, next) => {
  const state = inCheckout(ctx);
  if (!state) return next();
  if (state.stage !== "postage") return stale(ctx, state);
  const option = (await activePostage(ctx)).find((o) => o.id === ctx.match[1]);
  if (!option) {
    await notice(ctx, ctx.t("checkout-postage-gone"));
    return afterContact(ctx, state.draft, {});
  }
  await goTo(ctx, { step: "checkout", stage: "coin", draft: { ...state.draft, postageOptionId: option.id } });
});

checkoutFeature.callbackQuery(/^co:coin:([A-Z]{3})$/, async (ctx, next) => {
  const state = inCheckout(ctx);
  if (!state) return next();
  if (state.stage !== "coin") return stale(ctx, state);
  const coin = (await coinsOnOffer(ctx.deps, ctx.settings)).find((c) => c === ctx.match[1]);
  if (!coin) {
    await notice(ctx, ctx.t("checkout-coin-gone"));
    return render(ctx, state);
  }
  await goTo(ctx, { step: "checkout", stage: "confirm", draft: { ...state.draft, coin } });
});

checkoutFeature.callbackQuery("co:coupon", async (ctx, next) => {
  const state = inCheckout(ctx);
  if (!state) return next();
  if (state.stage !== "confirm") return stale(ctx, state);
  await goTo(ctx, { step: "checkout", stage: "coupon", draft: state.draft });
});

checkoutFeature.callbackQuery("co:uncoupon", async (ctx, next) => {
  const state = inCheckout(ctx);
  if (!state) return next();
  if (state.stage !== "confirm") return stale(ctx, state);
  await goTo(ctx, { step: "checkout", stage: "confirm", draft: withoutCoupon(state.draft) }, { problem: ctx.t("coupon-removed") });
});

checkoutFeature.callbackQuery("co:back", async (ctx, next) => {
  const state = inCheckout(ctx);
  if (!state) return next();
  if (state.stage !== "coupon") return stale(ctx, state);
  await goTo(ctx, { step: "checkout", stage: "confirm", draft: state.draft });
});

checkoutFeature.callbackQuery("co:ok", async (ctx, next) => {
  const state = inCheckout(ctx);
  if (!state) return next();
  if (state.stage !== "confirm") return stale(ctx, state);
  const { name, streetAddress, postcode, contact, coin, quotedTotalPence } = state.draft;
  if (!name || !streetAddress || !postcode || !coin) {
    return goTo(ctx, { step: "checkout", stage: "name", draft: {} });
  }
  if (quotedTotalPence === undefined) {
    // A summary shown before totals were kept (an older message): show it again, priced now.
    return showSummary(ctx, state, {});
  }
  // Two presses of "Confirm" (or two instances) must not make two orders: only one moves on.
  if (!(await replaceConversation(ctx.deps.db, ctx.customerId, state, IDLE))) {
    await notice(ctx, ctx.t("checkout-already-placing"));
    return;
  }
  ctx.conversation = IDLE;
  await notice(ctx, ctx.t("checkout-placing"));
  // The gateway may take seconds: the customer sees that something is happening, and the
  // summary's buttons are gone, so it cannot be confirmed twice.
  await show(ctx, ctx.t("checkout-creating-payment"));
  let result;
  try {
    result = await checkout(
      { ...ctx.deps, logger: ctx.log },
      {
        telegramUserId: ctx.customerId,
        telegramUsername: ctx.from.username ?? null,
        shippingAddress: { name, streetAddress, postcode, contact: contact ?? null },
        postageOptionId: state.draft.postageOptionId ?? null,
        coin,
        quotedTotalPence,
        couponCode: state.draft.couponCode ?? null,
        language: ctx.language,
      },
    );
  } catch (error) {
    await saveConversation(ctx.deps.db, ctx.customerId, state);
    ctx.conversation = state;
    if (error instanceof CouponRefusedError && state.draft.couponCode) {
      // The coupon went (its last use taken, switched off) between the summary and Confirm: nothing was bought.
      return showSummary(ctx, { ...state, draft: withoutCoupon(state.draft) }, { problem: ctx.t("coupon-gone-at-confirm", { reason: ctx.tr.refusal(error) }) });
    }
    if (!(error instanceof ShopError)) throw error;
    // Nothing was bought (the total or stock changed, the gateway refused: the cart is as it
    // was). The summary is shown again, priced now, in place of "Creating your payment...".
    return showSummary(ctx, state, { problem: ctx.t("warning", { text: ctx.tr.refusal(error) }) });
  }

  const { order, payment } = result;
  await show(ctx, ctx.t("order-placed", { order: shortId(order.id), total: ctx.tr.price(toPence(order.totalAmount)) }));
  await sendPaymentRequest(ctx, {
    heading: ctx.t("payment-heading", { order: shortId(order.id) }),
    coin: payment.payCurrency.toUpperCase(),
    amount: payment.payAmount,
    address: payment.payAddress,
    deadline: paymentDeadline({
      createdAt: new Date(order.createdAt),
      paymentExpiresAt: payment.expiresAt ? new Date(payment.expiresAt) : null,
    }),
    footer: ctx.t("payment-footer"),
    checkoutUrl: payment.checkoutUrl,
  });
  // The way on is a message of its own: its buttons edit it, never the payment details above.
  await say(ctx, ctx.t("payment-details-above"), new InlineKeyboard().text(ctx.t("menu-orders"), data("orders")).text(ctx.t("main-menu-button"), data("menu")));
});
