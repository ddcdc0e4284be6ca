import { Composer, InlineKeyboard } from "grammy";
import { waitForRestock } from "../../shop/customers";
import { MAX_CART_QUANTITY, addToCart } from "../../shop/ordering";
import { type CatalogueProduct, findVariant, listVariants, unitPricePence, type VariantRow, variantUnitPricePence } from "../../shop/catalogue";
import { ShopError, UUID_SOURCE } from "../../shop/common";
import type { BotContext } from "../context";
import { showProductCard } from "../product-photo";
import { showMainMenu } from "./start";
import {
  canBuy,
  CHOICE_SOURCE,
  type Choice,
  choiceOf,
  chosenVariant,
  decodeChoice,
  encodeChoice,
  isComplete,
  matching,
  noChoice,
  unavailableReason,
  withValue,
} from "../variant-choice";
import { itemDisplayName } from "../../../contract";
import { inLanguage, localizedName, translatedProductNames, type Translator } from "../../shop/languages";
import { addPager, data, EN, fit, label, MAX_CAPTION, notice, show } from "../ui";

// Browse Products: main categories -> subcategories -> active products -> a product card where the
// customer picks a quantity and adds it to the cart. A product with options (issue 23) has a row of
// buttons per option on its card; once a value of each is chosen, that variant is what is added.

export const PAGE_SIZE = 8;
const UUID = UUID_SOURCE;
/** "Other products": the active products without a category, so none is unreachable. */
const NO_CATEGORY = "none";

export const catalogueFeature = new Composer<BotContext>();

async function showMainCategories(ctx: BotContext, page: number) {
  const [mains, uncategorised] = await Promise.all([ctx.reads.mainCategories(), ctx.reads.uncategorisedCount()]);
  const entries = mains.map((c) => ({ text: localizedName(c, ctx.language), target: `cat:${c.id}:0` }));
  if (uncategorised > 0) entries.push({ text: ctx.t("catalogue-other"), target: `cat:${NO_CATEGORY}:0` });
  const keyboard = new InlineKeyboard();
  if (entries.length === 0) {
    await show(ctx, ctx.t("catalogue-nothing"), keyboard.text(ctx.t("main-menu-button"), data("menu")));
    return;
  }
  const pageCount = Math.ceil(entries.length / PAGE_SIZE);
  const current = Math.min(Math.max(0, page), pageCount - 1);
  for (const entry of entries.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE)) {
    keyboard.text(label(entry.text), data(entry.target)).row();
  }
  addPager(ctx.tr, keyboard, current, pageCount, (p) => `cats:${p}`);
  keyboard.text(ctx.t("main-menu-button"), data("menu"));
  await show(ctx, `${ctx.t("menu-browse")}\n\n${ctx.t("catalogue-choose-category")}`, keyboard);
}

function productButtonText(ctx: BotContext, product: CatalogueProduct) {
  const price = product.stock > 0 ? ctx.tr.amount(product.price) : ctx.t("product-button-out-of-stock");
  return `${label(localizedName(product, ctx.language), 30)} · ${price}`;
}

async function showCategory(ctx: BotContext, categoryId: string, page: number) {
  const category = categoryId === NO_CATEGORY ? null : await ctx.reads.category(categoryId);
  if (categoryId !== NO_CATEGORY && !category) {
    await notice(ctx, ctx.t("category-gone"));
    return showMainMenu(ctx);
  }
  const subcategories = category && !category.parentId ? await ctx.reads.subcategories(category.id) : [];
  const products = await ctx.reads.activeProducts(category?.id ?? null, page, PAGE_SIZE);

  const keyboard = new InlineKeyboard();
  for (const sub of subcategories) keyboard.text(`📁 ${label(localizedName(sub, ctx.language))}`, data(`cat:${sub.id}:0`)).row();
  for (const product of products.items) keyboard.text(productButtonText(ctx, product), data(`prod:${product.id}:1`)).row();
  addPager(ctx.tr, keyboard, products.page, products.pageCount, (p) => `cat:${categoryId}:${p}`);
  keyboard.text(ctx.t("back-button"), data(category?.parentId ? `cat:${category.parentId}:0` : "cats:0")).text(ctx.t("main-menu-button"), data("menu"));

  const title = category ? localizedName(category, ctx.language) : ctx.t("catalogue-other");
  const hint =
    subcategories.length === 0 && products.total === 0
      ? "category-nothing"
      : subcategories.length > 0 && products.total > 0
        ? "category-choose-both"
        : subcategories.length > 0
          ? "category-choose-subcategory"
          : "category-choose-product";
  await show(ctx, `${title}\n\n${ctx.t(hint)}`, keyboard);
}

/** The quantity the card offers: at least 1, at most what is in stock. */
function clampQuantity(stock: number, quantity: number) {
  return Math.max(1, Math.min(quantity, stock, MAX_CART_QUANTITY));
}

/** `product` as the customer sees it: its name and description already in their language (inLanguage). */
export function productCaption(product: CatalogueProduct, quantity: number, tr: Translator = EN): string {
  const lines = [tr.t("product-price", { price: tr.amount(product.price) })];
  const tiers = [...(product.bulkPricing ?? [])].sort((a, b) => a.minQuantity - b.minQuantity);
  if (tiers.length > 0) {
    lines.push(tr.t("product-bulk-pricing"), ...tiers.map((tier) => tr.t("product-bulk-tier", { quantity: tier.minQuantity, price: tr.amount(tier.price) })));
  }
  if (product.stock > 0) {
    lines.push(tr.t("product-stock", { stock: product.stock }));
    const unit = unitPricePence(product, quantity);
    lines.push("", tr.t("product-quantity", { quantity, unit: tr.price(unit), total: tr.price(unit * quantity) }));
  } else {
    lines.push(tr.t("product-out-of-stock"));
  }
  const details = lines.join("\n");
  // The caption limit is 1024: the description gives way, never the price or stock.
  const room = MAX_CAPTION - details.length - product.name.length - 4;
  const description = product.description.trim() ? fit(product.description.trim(), Math.max(0, room)) : "";
  return [product.name, description, details].filter(Boolean).join("\n\n");
}

export const NOTIFY_ME_BUTTON = EN.t("notify-me-button");
export const NOTIFY_ME_NOTICE = EN.t("notify-me-notice");

function productKeyboard(product: CatalogueProduct, quantity: number, tr: Translator) {
  const keyboard = new InlineKeyboard();
  const id = product.id;
  if (product.stock > 0) {
    keyboard
      .text("➖", data(`prod:${id}:${clampQuantity(product.stock, quantity - 1)}`))
      .text(tr.t("product-quantity-button", { quantity }), data("noop"))
      .text("➕", data(`prod:${id}:${clampQuantity(product.stock, quantity + 1)}`))
      .row();
    const tiers = (product.bulkPricing ?? []).filter((t) => t.minQuantity <= product.stock).sort((a, b) => a.minQuantity - b.minQuantity);
    for (const tier of tiers.slice(0, 4)) keyboard.text(`${tier.minQuantity}+`, data(`prod:${id}:${tier.minQuantity}`));
    if (tiers.length > 0) keyboard.row();
    keyboard.text(tr.t("product-add-button", { quantity }), data(`add:${id}:${quantity}`)).row();
  } else {
    // Issue 14: one message, through the broadcast queue, when the stock comes back (shop/customers/broadcasts.ts).
    keyboard.text(tr.t("notify-me-button"), data(`restock:${id}`)).row();
  }
  keyboard.text(tr.t("back-button"), data(`cat:${product.categoryId ?? NO_CATEGORY}:0`)).text(tr.t("product-cart-button"), data("cart"));
  return keyboard;
}

// --- Products with options (issue 23) ---

/** Option values side by side on one row of buttons; more wrap onto the next row (Telegram allows 8). */
const VALUES_PER_ROW = 5;

export const OPTIONS_CHANGED_NOTICE = EN.t("options-changed");

type OptionsCard = { product: CatalogueProduct; variants: VariantRow[]; choice: Choice; quantity: number };

/** The chosen variant's own image once it has one, else the product's photos. */
function cardImages(product: CatalogueProduct, variant: VariantRow | null): readonly string[] {
  return variant?.imageUrl ? [variant.imageUrl] : product.imageUrls;
}

const namesList = (tr: Translator, names: string[]) =>
  names.length <= 1 ? names.join("") : tr.t("list-and", { first: names.slice(0, -1).join(", "), last: names.at(-1)! });

/** The caption of a card with options: the choice so far, then the chosen variant's price and stock (never its SKU). */
export function optionsCaption({ product, variants, choice, quantity }: OptionsCard, tr: Translator = EN): string {
  const options = product.options;
  const lines = options.map((option, k) => tr.t("option-value", { option: option.name, value: choice[k] === null ? tr.t("option-not-chosen") : option.values[choice[k]!]! }));
  lines.push("");
  const variant = chosenVariant(variants, options, choice);
  if (variant) {
    const unitAt = (count: number) => variantUnitPricePence(product, variant.price, count);
    lines.push(tr.t("product-price", { price: tr.price(unitAt(1)) }));
    const tiers = [...(product.bulkPricing ?? [])].sort((a, b) => a.minQuantity - b.minQuantity);
    if (tiers.length > 0) {
      lines.push(tr.t("product-bulk-pricing"), ...tiers.map((tier) => tr.t("product-bulk-tier", { quantity: tier.minQuantity, price: tr.price(unitAt(tier.minQuantity)) })));
    }
    if (variant.stock > 0) {
      const unit = unitAt(quantity);
      lines.push(tr.t("product-stock", { stock: variant.stock }), "", tr.t("product-quantity", { quantity, unit: tr.price(unit), total: tr.price(unit * quantity) }));
    } else {
      lines.push(tr.t("product-out-of-stock"));
    }
  } else {
    const prices = matching(variants, options, choice).map((v) => variantUnitPricePence(product, v.price, 1));
    if (prices.length > 0) {
      const lowest = Math.min(...prices);
      lines.push(tr.t(lowest === Math.max(...prices) ? "product-price" : "product-price-from", { price: tr.price(lowest) }));
    }
    if (!canBuy(variants, options, choice)) lines.push(tr.t("product-out-of-stock"));
    if (isComplete(choice)) lines.push("", tr.t("options-combination-unavailable"));
    else lines.push("", tr.t("options-please-choose", { names: namesList(tr, options.filter((_, k) => choice[k] === null).map((o) => o.name)) }));
  }
  const details = lines.join("\n");
  const room = MAX_CAPTION - details.length - product.name.length - 4;
  const description = product.description.trim() ? fit(product.description.trim(), Math.max(0, room)) : "";
  return [product.name, description, details].filter(Boolean).join("\n\n");
}

/**
 * One row of buttons per option: "✅ M" chosen, "M ✖" when nothing fitting the choice so far with M
 * is in stock. Each value button carries the card's choice and the value pressed (po:<product>:<choice>:<option>.<value>).
 */
export function optionsKeyboard({ product, variants, choice, quantity }: OptionsCard, tr: Translator = EN): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  const options = product.options;
  const id = product.id;
  const state = encodeChoice(choice);
  options.forEach((option, k) => {
    option.values.forEach((value, j) => {
      if (j > 0 && j % VALUES_PER_ROW === 0) keyboard.row();
      const text = choice[k] === j ? `✅ ${value}` : canBuy(variants, options, withValue(choice, k, j)) ? value : `${value} ✖`;
      keyboard.text(label(text, 24), data(`po:${id}:${state}:${k}.${j}`));
    });
    keyboard.row();
  });
  const variant = chosenVariant(variants, options, choice);
  if (variant && variant.stock > 0) {
    keyboard
      .text("➖", data(`pv:${id}:${state}:${clampQuantity(variant.stock, quantity - 1)}`))
      .text(tr.t("product-quantity-button", { quantity }), data("noop"))
      .text("➕", data(`pv:${id}:${state}:${clampQuantity(variant.stock, quantity + 1)}`))
      .row();
    const tiers = (product.bulkPricing ?? []).filter((t) => t.minQuantity <= variant.stock).sort((a, b) => a.minQuantity - b.minQuantity);
    for (const tier of tiers.slice(0, 4)) keyboard.text(`${tier.minQuantity}+`, data(`pv:${id}:${state}:${tier.minQuantity}`));
    if (tiers.length > 0) keyboard.row();
    keyboard.text(tr.t("product-add-button", { quantity }), data(`add:${variant.id}:${quantity}`)).row();
  } else if (variant) {
    keyboard.text(tr.t("notify-me-button"), data(`restock:${variant.id}`)).row();
  }
  keyboard.text(tr.t("back-button"), data(`cat:${product.categoryId ?? NO_CATEGORY}:0`)).text(tr.t("product-cart-button"), data("cart"));
  return keyboard;
}

/**
 * The card of a product with options. `previous`: the choice of the card pressed, so a change of
 * photo (a variant's own image) sends the card anew instead of editing its caption under the old photo.
 */
async function showOptionsCard(ctx: BotContext, product: CatalogueProduct, choice: Choice, wanted: number, previous?: Choice, known?: VariantRow[]) {
  // Read fresh, not through the cache: the variants' stock changes with every order.
  const variants = known ?? (await listVariants(ctx.deps.db, product.id));
  const variant = chosenVariant(variants, product.options, choice);
  const card: OptionsCard = { product, variants, choice, quantity: variant ? clampQuantity(variant.stock, wanted) : 1 };
  const images = cardImages(product, variant);
  const before = previous ? cardImages(product, chosenVariant(variants, product.options, previous)) : images;
  const fresh = images.length !== before.length || images.some((image, i) => image !== before[i]);
  await showProductCard(ctx, images, optionsCaption(card, ctx.tr), optionsKeyboard(card, ctx.tr), { fresh });
}

/**
 * A product's card. `id` may also be a variant's (a cart line's button, "Add to cart" refused, a
 * restock alert): its product's card, with that variant chosen. A product's own id is its hidden
 * default variant's, so a product without options is found as before.
 */
async function showProduct(ctx: BotContext, id: string, wanted: number) {
  let product = await ctx.reads.activeProduct(id);
  let choice: Choice | null = null;
  if (!product) {
    const variant = await findVariant(ctx.deps.db, id);
    product = variant ? await ctx.reads.activeProduct(variant.productId) : null;
    if (variant && product) choice = choiceOf(product.options, variant.optionValues);
  }
  if (!product) {
    await notice(ctx, ctx.t("product-gone"));
    return showMainMenu(ctx);
  }
  product = inLanguage(product, ctx.language);
  if (product.options.length > 0) return showOptionsCard(ctx, product, choice ?? noChoice(product.options), wanted);
  const quantity = clampQuantity(product.stock, wanted);
  await showProductCard(ctx, product.imageUrls, productCaption(product, quantity, ctx.tr), productKeyboard(product, quantity, ctx.tr));
}

/** The product of an option button, with the choice it carries; null when the customer was told why not. */
async function productWithChoice(ctx: BotContext, productId: string, state: string) {
  const found = await ctx.reads.activeProduct(productId);
  if (!found) {
    await notice(ctx, ctx.t("product-gone"));
    await showMainMenu(ctx);
    return null;
  }
  const product = inLanguage(found, ctx.language);
  if (product.options.length === 0) {
    // Its options were removed since the button was sent: the plain card.
    await notice(ctx, ctx.t("options-changed"));
    await showProduct(ctx, product.id, 1);
    return null;
  }
  const choice = decodeChoice(state, product.options);
  if (!choice) {
    await notice(ctx, ctx.t("options-changed"));
    await showOptionsCard(ctx, product, noChoice(product.options), 1);
    return null;
  }
  return { product, choice };
}

/**
 * A value pressed: chosen (or, pressed again, unchosen). A value sold out for the choice so far is
 * chosen with the reason as a notice, so a sold-out variant can be reached and "Notify me" asked for;
 * a value no active variant has with the choice so far ("No M in Black") is refused and the card stays.
 */
catalogueFeature.callbackQuery(new RegExp(`^po:(${UUID}):(${CHOICE_SOURCE}):(\\d)\\.(\\d{1,2})$`), async (ctx) => {
  const found = await productWithChoice(ctx, ctx.match[1]!, ctx.match[2]!);
  if (!found) return;
  const { product, choice } = found;
  const options = product.options;
  const k = Number(ctx.match[3]);
  const j = Number(ctx.match[4]);
  if (k >= options.length || j >= options[k]!.values.length) {
    await notice(ctx, ctx.t("options-changed"));
    return showOptionsCard(ctx, product, noChoice(options), 1);
  }
  const variants = await listVariants(ctx.deps.db, product.id);
  const next = withValue(choice, k, choice[k] === j ? null : j);
  if (choice[k] !== j && !canBuy(variants, options, next)) {
    const reason = unavailableReason(variants, options, choice, k, j, ctx.tr);
    if (matching(variants, options, next).length === 0) return notice(ctx, reason, true);
    await notice(ctx, reason);
  }
  await showOptionsCard(ctx, product, next, 1, choice, variants);
});

/** A quantity pressed on a card whose options are all chosen. */
catalogueFeature.callbackQuery(new RegExp(`^pv:(${UUID}):(${CHOICE_SOURCE}):(\\d{1,5})$`), async (ctx) => {
  const found = await productWithChoice(ctx, ctx.match[1]!, ctx.match[2]!);
  if (!found) return;
  const variants = await listVariants(ctx.deps.db, found.product.id);
  if (isComplete(found.choice) && !chosenVariant(variants, found.product.options, found.choice)) {
    // The variant was deleted or switched off since the card was shown.
    await notice(ctx, ctx.t("option-gone"), true);
    return showOptionsCard(ctx, found.product, noChoice(found.product.options), 1, found.choice, variants);
  }
  await showOptionsCard(ctx, found.product, found.choice, Number(ctx.match[3]), found.choice, variants);
});

catalogueFeature.callbackQuery(/^cats:(\d{1,4})$/, (ctx) => showMainCategories(ctx, Number(ctx.match[1])));

catalogueFeature.callbackQuery(new RegExp(`^cat:(${UUID}|${NO_CATEGORY}):(\\d{1,4})$`), (ctx) =>
  showCategory(ctx, ctx.match[1]!, Number(ctx.match[2])),
);

catalogueFeature.callbackQuery(new RegExp(`^prod:(${UUID}):(\\d{1,5})$`), (ctx) =>
  showProduct(ctx, ctx.match[1]!, Number(ctx.match[2])),
);

export const OPTION_GONE_NOTICE = EN.t("option-gone");

const OPTION_BUTTON = new RegExp(`^p[ov]:(${UUID}):`);

/** The product of the card the button sat on, from its option buttons (po:/pv: carry the product's id). */
function pressedCardProductId(ctx: BotContext): string | null {
  const message = ctx.callbackQuery?.message;
  const buttons = message && "reply_markup" in message ? (message.reply_markup?.inline_keyboard.flat() ?? []) : [];
  for (const button of buttons) {
    const found = "callback_data" in button ? OPTION_BUTTON.exec(button.callback_data ?? "") : null;
    if (found) return found[1]!;
  }
  return null;
}

/**
 * A button naming a variant that can no longer be bought (deleted or switched off since the card was
 * shown): when it sat on the card of a product with options still on sale, that card again, asking
 * for a new choice. False when it did not.
 */
async function showCardOfGoneVariant(ctx: BotContext): Promise<boolean> {
  const productId = pressedCardProductId(ctx);
  if (!productId) return false;
  const found = await ctx.reads.activeProduct(productId);
  if (!found || found.options.length === 0) return false;
  const product = inLanguage(found, ctx.language);
  await notice(ctx, ctx.t("option-gone"), true);
  await showOptionsCard(ctx, product, noChoice(product.options), 1);
  return true;
}

/** A variant's id (a product's own id for a product without options: its hidden default variant). */
catalogueFeature.callbackQuery(new RegExp(`^restock:(${UUID})$`), async (ctx) => {
  const variantId = ctx.match[1]!;
  const outcome = await waitForRestock(ctx.deps.db, variantId, ctx.customerId);
  if (outcome === "waiting") return notice(ctx, ctx.t("notify-me-notice"), true);
  if (outcome === "unavailable" && (await showCardOfGoneVariant(ctx))) return;
  // Back in stock meanwhile (the card is fresh again), or no longer sold.
  return showProduct(ctx, variantId, 1);
});

/** A variant's id, as "Notify me"; an old button of a product since given options is asked to choose them. */
catalogueFeature.callbackQuery(new RegExp(`^add:(${UUID}):(\\d{1,5})$`), async (ctx) => {
  const [, variantId, quantity] = ctx.match;
  try {
    const cart = await addToCart(ctx.deps.db, ctx.customerId, variantId!, Number(quantity), ctx.language);
    const line = cart.lines.find((l) => l.variantId === variantId);
    const names = line ? await translatedProductNames(ctx.deps.db, [line.productId], ctx.language) : new Map<string, string>();
    const name = line ? itemDisplayName(names.get(line.productId) ?? line.productName, line.label) : ctx.t("added-the-product");
    await notice(ctx, line ? ctx.t("added-to-cart-total", { quantity: Number(quantity), name, inCart: line.quantity }) : ctx.t("added-to-cart", { quantity: Number(quantity), name }));
  } catch (error) {
    // Out of stock, not enough left, switched off: the shop's sentence, as an alert on the card.
    if (!(error instanceof ShopError)) throw error;
    if (error.kind === "not_found") {
      if (await showCardOfGoneVariant(ctx)) return;
      await notice(ctx, ctx.tr.refusal(error), true);
      return showMainMenu(ctx);
    }
    await notice(ctx, ctx.tr.refusal(error), true);
    return showProduct(ctx, variantId!, Number(quantity));
  }
});
