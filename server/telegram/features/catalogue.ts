import { Composer, InlineKeyboard } from "grammy";
import { waitForRestock } from "../../shop/customers";
import { MAX_CART_QUANTITY, addToCart } from "../../shop/ordering";
import { type CatalogueProduct, unitPricePence } from "../../shop/catalogue";
import { ShopError, UUID_SOURCE } from "../../shop/common";
import type { BotContext } from "../context";
import { showProductCard } from "../product-photo";
import { showMainMenu } from "./start";
import { addPager, data, fit, gbp, gbpAmount, label, MAIN_MENU_BUTTON, MAX_CAPTION, MENU, notice, show } from "../ui";

// Browse Products: main categories -> subcategories -> active products -> a product card where the
// customer picks a quantity and adds it to the cart.

export const PAGE_SIZE = 8;
const UUID = UUID_SOURCE;
/** "Other products": the active products without a category, so none is unreachable. */
const NO_CATEGORY = "none";

export const catalogueFeature = new Composer<BotContext>();

async function showMainCategories(ctx: BotContext, page: number) {
  const [mains, uncategorised] = await Promise.all([ctx.reads.mainCategories(), ctx.reads.uncategorisedCount()]);
  const entries = mains.map((c) => ({ text: c.name, target: `cat:${c.id}:0` }));
  if (uncategorised > 0) entries.push({ text: "Other products", target: `cat:${NO_CATEGORY}:0` });
  const keyboard = new InlineKeyboard();
  if (entries.length === 0) {
    await show(ctx, "There are no products to show yet. Please check back soon.", keyboard.text(MAIN_MENU_BUTTON, data("menu")));
    return;
  }
  const pageCount = Math.ceil(entries.length / PAGE_SIZE);
  const current = Math.min(Math.max(0, page), pageCount - 1);
  for (const entry of entries.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE)) {
    keyboard.text(label(entry.text), data(entry.target)).row();
  }
  addPager(keyboard, current, pageCount, (p) => `cats:${p}`);
  keyboard.text(MAIN_MENU_BUTTON, data("menu"));
  await show(ctx, `${MENU.browse}\n\nChoose a category:`, keyboard);
}

function productButtonText(product: CatalogueProduct) {
  const price = product.stock > 0 ? gbpAmount(product.price) : "out of stock";
  return `${label(product.name, 30)} · ${price}`;
}

async function showCategory(ctx: BotContext, categoryId: string, page: number) {
  const category = categoryId === NO_CATEGORY ? null : await ctx.reads.category(categoryId);
  if (categoryId !== NO_CATEGORY && !category) {
    await notice(ctx, "That category is no longer available.");
    return showMainMenu(ctx);
  }
  const subcategories = category && !category.parentId ? await ctx.reads.subcategories(category.id) : [];
  const products = await ctx.reads.activeProducts(category?.id ?? null, page, PAGE_SIZE);

  const keyboard = new InlineKeyboard();
  for (const sub of subcategories) keyboard.text(`📁 ${label(sub.name)}`, data(`cat:${sub.id}:0`)).row();
  for (const product of products.items) keyboard.text(productButtonText(product), data(`prod:${product.id}:1`)).row();
  addPager(keyboard, products.page, products.pageCount, (p) => `cat:${categoryId}:${p}`);
  keyboard.text("« Back", data(category?.parentId ? `cat:${category.parentId}:0` : "cats:0")).text(MAIN_MENU_BUTTON, data("menu"));

  const title = category?.name ?? "Other products";
  const hint =
    subcategories.length === 0 && products.total === 0
      ? "There are no products here yet."
      : subcategories.length > 0 && products.total > 0
        ? "Choose a subcategory or a product:"
        : subcategories.length > 0
          ? "Choose a subcategory:"
          : "Choose a product:";
  await show(ctx, `${title}\n\n${hint}`, keyboard);
}

/** The quantity the card offers: at least 1, at most what is in stock. */
function clampQuantity(product: CatalogueProduct, quantity: number) {
  return Math.max(1, Math.min(quantity, product.stock, MAX_CART_QUANTITY));
}

export function productCaption(product: CatalogueProduct, quantity: number): string {
  const lines = [`Price: ${gbpAmount(product.price)}`];
  const tiers = [...(product.bulkPricing ?? [])].sort((a, b) => a.minQuantity - b.minQuantity);
  if (tiers.length > 0) {
    lines.push("Bulk pricing:", ...tiers.map((tier) => `• ${tier.minQuantity}+ for ${gbpAmount(tier.price)}`));
  }
  if (product.stock > 0) {
    lines.push(`Stock: ${product.stock} available`);
    const unit = unitPricePence(product, quantity);
    lines.push("", `Quantity: ${quantity} × ${gbp(unit)} = ${gbp(unit * quantity)}`);
  } else {
    lines.push("Out of stock");
  }
  const details = lines.join("\n");
  // The caption limit is 1024: the description gives way, never the price or stock.
  const room = MAX_CAPTION - details.length - product.name.length - 4;
  const description = product.description.trim() ? fit(product.description.trim(), Math.max(0, room)) : "";
  return [product.name, description, details].filter(Boolean).join("\n\n");
}

export const NOTIFY_ME_BUTTON = "🔔 Notify me when back";
export const NOTIFY_ME_NOTICE = "We will message you once when it is back in stock.";

function productKeyboard(product: CatalogueProduct, quantity: number) {
  const keyboard = new InlineKeyboard();
  const id = product.id;
  if (product.stock > 0) {
    keyboard
      .text("➖", data(`prod:${id}:${clampQuantity(product, quantity - 1)}`))
      .text(`Qty: ${quantity}`, data("noop"))
      .text("➕", data(`prod:${id}:${clampQuantity(product, quantity + 1)}`))
      .row();
    const tiers = (product.bulkPricing ?? []).filter((t) => t.minQuantity <= product.stock).sort((a, b) => a.minQuantity - b.minQuantity);
    for (const tier of tiers.slice(0, 4)) keyboard.text(`${tier.minQuantity}+`, data(`prod:${id}:${tier.minQuantity}`));
    if (tiers.length > 0) keyboard.row();
    keyboard.text(`Add ${quantity} to cart`, data(`add:${id}:${quantity}`)).row();
  } else {
    // Issue 14: one message, through the broadcast queue, when the stock comes back (shop/customers/broadcasts.ts).
    keyboard.text(NOTIFY_ME_BUTTON, data(`restock:${id}`)).row();
  }
  keyboard.text("« Back", data(`cat:${product.categoryId ?? NO_CATEGORY}:0`)).text("🛒 " + MENU.cart, data("cart"));
  return keyboard;
}

async function showProduct(ctx: BotContext, productId: string, wanted: number) {
  const product = await ctx.reads.activeProduct(productId);
  if (!product) {
    await notice(ctx, "That product is no longer available.");
    return showMainMenu(ctx);
  }
  const quantity = clampQuantity(product, wanted);
  await showProductCard(ctx, product.imageUrls, productCaption(product, quantity), productKeyboard(product, quantity));
}

catalogueFeature.callbackQuery(/^cats:(\d{1,4})$/, (ctx) => showMainCategories(ctx, Number(ctx.match[1])));

catalogueFeature.callbackQuery(new RegExp(`^cat:(${UUID}|${NO_CATEGORY}):(\\d{1,4})$`), (ctx) =>
  showCategory(ctx, ctx.match[1]!, Number(ctx.match[2])),
);

catalogueFeature.callbackQuery(new RegExp(`^prod:(${UUID}):(\\d{1,5})$`), (ctx) =>
  showProduct(ctx, ctx.match[1]!, Number(ctx.match[2])),
);

catalogueFeature.callbackQuery(new RegExp(`^restock:(${UUID})$`), async (ctx) => {
  const productId = ctx.match[1]!;
  const outcome = await waitForRestock(ctx.deps.db, productId, ctx.customerId);
  if (outcome === "waiting") return notice(ctx, NOTIFY_ME_NOTICE, true);
  // Back in stock meanwhile (the card is fresh again), or no longer sold.
  return showProduct(ctx, productId, 1);
});

catalogueFeature.callbackQuery(new RegExp(`^add:(${UUID}):(\\d{1,5})$`), async (ctx) => {
  const [, productId, quantity] = ctx.match;
  try {
    const cart = await addToCart(ctx.deps.db, ctx.customerId, productId!, Number(quantity));
    const line = cart.lines.find((l) => l.productId === productId);
    const inCart = line ? ` You now have ${line.quantity} in your cart.` : "";
    await notice(ctx, `Added ${quantity} × ${line?.name ?? "the product"} to your cart.${inCart}`);
  } catch (error) {
    // Out of stock, not enough left, switched off: the shop's sentence, as an alert on the card.
    if (!(error instanceof ShopError)) throw error;
    await notice(ctx, error.message, true);
    if (error.kind === "not_found") return showMainMenu(ctx);
    return showProduct(ctx, productId!, Number(quantity));
  }
});
