import { Composer, InlineKeyboard } from "grammy";
import { clearCart, getCart, setCartQuantity, type Cart } from "../../shop/ordering";
import { ShopError, UUID_SOURCE } from "../../shop/common";
import type { BotContext } from "../context";
import { itemDisplayName } from "../../../contract";
import { translatedProductNames, type Translator } from "../../shop/languages";
import { data, EN, label, notice, show } from "../ui";

// My Cart: lines priced by their bulk tier, + / - / remove, empty, and the way to checkout.

const UUID = UUID_SOURCE;

export const cartFeature = new Composer<BotContext>();

/** What changed in the cart since the customer last looked (sold out, switched off, less stock). */
export function removalNotes(cart: Cart, tr: Translator = EN): string {
  return cart.removed.map((r) => tr.t("warning", { text: tr.say(r.customerText) })).join("\n");
}

/** The cart's lines under the product names the customer sees in their language. */
export async function localizedCart(ctx: BotContext, cart: Cart): Promise<Cart> {
  const names = await translatedProductNames(ctx.deps.db, cart.lines.map((line) => line.productId), ctx.language);
  if (names.size === 0) return cart;
  return { ...cart, lines: cart.lines.map((line) => (names.has(line.productId) ? { ...line, name: itemDisplayName(names.get(line.productId)!, line.label) } : line)) };
}

export function cartText(cart: Cart, tr: Translator = EN): string {
  const notes = removalNotes(cart, tr);
  if (cart.lines.length === 0) return [notes, tr.t("cart-empty")].filter(Boolean).join("\n\n");
  const lines = cart.lines.map(
    (line, i) => `${i + 1}. ${line.name}\n    ${line.quantity} × ${tr.price(line.unitPricePence)} = ${tr.price(line.linePricePence)}`,
  );
  return [notes, tr.t("menu-cart"), lines.join("\n"), tr.t("cart-subtotal", { amount: tr.price(cart.subtotalPence) })].filter(Boolean).join("\n\n");
}

function cartKeyboard(cart: Cart, tr: Translator): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  if (cart.lines.length === 0) {
    return keyboard.text(tr.t("menu-browse"), data("cats:0")).row().text(tr.t("main-menu-button"), data("menu"));
  }
  for (const line of cart.lines) {
    // Quantities ride in the button itself (set to N), so a double tap cannot add twice. A line is a
    // variant (issue 23); for a product without options its id is the product's, so older buttons work.
    keyboard
      .text("➖", data(`cq:${line.variantId}:${line.quantity - 1}`))
      .text(`${line.quantity} × ${label(line.name, 22)}`, data(`prod:${line.variantId}:${line.quantity}`))
      .text("➕", data(`cq:${line.variantId}:${line.quantity + 1}`))
      .text("✖", data(`cq:${line.variantId}:0`))
      .row();
  }
  return keyboard
    .text(tr.t("cart-empty-button"), data("empty"))
    .text(tr.t("cart-checkout-button"), data("checkout"))
    .row()
    .text(tr.t("menu-browse"), data("cats:0"))
    .text(tr.t("main-menu-button"), data("menu"));
}

/** The cart; `problem` (why the customer is still here, such as a refused Checkout) comes first. */
export async function showCart(ctx: BotContext, cart?: Cart, problem?: string): Promise<void> {
  const current = await localizedCart(ctx, cart ?? (await getCart(ctx.deps.db, ctx.customerId, ctx.language)));
  await show(ctx, [problem, cartText(current, ctx.tr)].filter(Boolean).join("\n\n"), cartKeyboard(current, ctx.tr));
}

cartFeature.callbackQuery("cart", (ctx) => showCart(ctx));

cartFeature.callbackQuery(new RegExp(`^cq:(${UUID}):(\\d{1,5})$`), async (ctx) => {
  const [, variantId, quantity] = ctx.match;
  try {
    await showCart(ctx, await setCartQuantity(ctx.deps.db, ctx.customerId, variantId!, Number(quantity), ctx.language));
  } catch (error) {
    if (!(error instanceof ShopError)) throw error;
    await notice(ctx, ctx.tr.refusal(error), true);
    await showCart(ctx);
  }
});

cartFeature.callbackQuery("empty", async (ctx) => {
  await clearCart(ctx.deps.db, ctx.customerId);
  await notice(ctx, ctx.t("cart-emptied"));
  await showCart(ctx);
});
