import { Composer, InlineKeyboard } from "grammy";
import { clearCart, getCart, setCartQuantity, type Cart } from "../../shop/ordering";
import { ShopError, UUID_SOURCE } from "../../shop/common";
import type { BotContext } from "../context";
import { data, gbp, label, MAIN_MENU_BUTTON, MENU, notice, show } from "../ui";

// My Cart: lines priced by their bulk tier, + / - / remove, empty, and the way to checkout.

const UUID = UUID_SOURCE;

export const cartFeature = new Composer<BotContext>();

/** What changed in the cart since the customer last looked (sold out, switched off, less stock). */
export function removalNotes(cart: Cart): string {
  return cart.removed.map((r) => `⚠️ ${r.reason}`).join("\n");
}

export function cartText(cart: Cart): string {
  const notes = removalNotes(cart);
  if (cart.lines.length === 0) return [notes, "Your cart is empty."].filter(Boolean).join("\n\n");
  const lines = cart.lines.map(
    (line, i) => `${i + 1}. ${line.name}\n    ${line.quantity} × ${gbp(line.unitPricePence)} = ${gbp(line.linePricePence)}`,
  );
  return [notes, `${MENU.cart}`, lines.join("\n"), `Subtotal: ${gbp(cart.subtotalPence)}`].filter(Boolean).join("\n\n");
}

function cartKeyboard(cart: Cart): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  if (cart.lines.length === 0) {
    return keyboard.text(MENU.browse, data("cats:0")).row().text(MAIN_MENU_BUTTON, data("menu"));
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
    .text("🗑 Empty cart", data("empty"))
    .text("✅ Checkout", data("checkout"))
    .row()
    .text(MENU.browse, data("cats:0"))
    .text(MAIN_MENU_BUTTON, data("menu"));
}

export async function showCart(ctx: BotContext, cart?: Cart): Promise<void> {
  const current = cart ?? (await getCart(ctx.deps.db, ctx.customerId));
  await show(ctx, cartText(current), cartKeyboard(current));
}

cartFeature.callbackQuery("cart", (ctx) => showCart(ctx));

cartFeature.callbackQuery(new RegExp(`^cq:(${UUID}):(\\d{1,5})$`), async (ctx) => {
  const [, variantId, quantity] = ctx.match;
  try {
    await showCart(ctx, await setCartQuantity(ctx.deps.db, ctx.customerId, variantId!, Number(quantity)));
  } catch (error) {
    if (!(error instanceof ShopError)) throw error;
    await notice(ctx, error.message, true);
    await showCart(ctx);
  }
});

cartFeature.callbackQuery("empty", async (ctx) => {
  await clearCart(ctx.deps.db, ctx.customerId);
  await notice(ctx, "Your cart is now empty.");
  await showCart(ctx);
});
