import { asc, eq } from "drizzle-orm";
import type { BotSettings, Language, StockState, StorefrontCatalogue, StorefrontProduct } from "../../../contract";
import type { SecretBox } from "../../crypto";
import type { DbOrTx } from "../../db/client";
import { products } from "../../db/schema";
import { formatPence, listCategories, listPostageOptions, toPence, variantsByProduct } from "../catalogue";
import { localizedDescription, localizedName } from "../languages";
import { coinsOnOffer } from "../ordering";
import { activeOwnerPublicKey } from "../vaults";

// What the storefront shows (issue 27): the catalogue the bot lets a customer browse (every category,
// the active products and their active variants), the active postage options and the coins checkout
// offers, with the owner's texts in the customer's language as the bot shows them (shop/languages).

const money = (amount: string | number) => formatPence(toPence(amount));

/**
 * In stock, low (at or below the product's low-stock threshold, as the dashboard counts it) or out.
 * How many are left is told only while low, as the bot's "Only 2 left".
 */
function stockOf(stock: number, lowStockThreshold: number): { stockState: StockState; left: number | null } {
  if (stock <= 0) return { stockState: "out_of_stock", left: null };
  if (stock <= lowStockThreshold) return { stockState: "low_stock", left: stock };
  return { stockState: "in_stock", left: null };
}

export async function storefrontCatalogue(
  deps: { db: DbOrTx; secrets: SecretBox },
  settings: Pick<BotSettings, "acceptedCurrencies"> | null,
  language: Language,
): Promise<StorefrontCatalogue> {
  const { db } = deps;
  const [categories, rows, postage, coins, owner] = await Promise.all([
    listCategories(db),
    db.select().from(products).where(eq(products.isActive, true)).orderBy(asc(products.name), asc(products.id)),
    listPostageOptions(db),
    coinsOnOffer(deps, settings),
    activeOwnerPublicKey(db),
  ]);
  const variants = await variantsByProduct(
    db,
    rows.map((row) => row.id),
  );
  const productList: StorefrontProduct[] = rows.flatMap((product) => {
    const active = (variants.get(product.id) ?? []).filter((variant) => variant.isActive);
    // Every product has a variant (its hidden default one without options): one with none left is not for sale.
    if (active.length === 0) return [];
    return [
      {
        id: product.id,
        name: localizedName(product, language),
        description: localizedDescription(product, language),
        categoryId: product.categoryId,
        price: money(product.price),
        imageUrls: product.imageUrls,
        bulkPricing: product.bulkPricing?.length
          ? [...product.bulkPricing].sort((a, b) => a.minQuantity - b.minQuantity).map((tier) => ({ minQuantity: tier.minQuantity, price: money(tier.price) }))
          : null,
        options: product.options,
        variants: active.map((variant) => ({
          id: variant.id,
          label: variant.label,
          optionValues: variant.optionValues,
          price: money(variant.price ?? product.price),
          ...stockOf(variant.stock, product.lowStockThreshold),
          imageUrl: variant.imageUrl,
        })),
        // products.stock is the sum over its active variants (the product_variants_stock trigger).
        stockState: stockOf(product.stock, product.lowStockThreshold).stockState,
      },
    ];
  });
  return {
    language,
    categories: categories.map((category) => ({ id: category.id, name: localizedName(category, language), parentId: category.parentId })),
    products: productList,
    postageOptions: postage
      .filter((option) => option.isActive)
      .map((option) => ({
        id: option.id,
        name: localizedName(option, language),
        description: localizedDescription(option, language) || null,
        price: money(option.price),
        estimatedDays: option.estimatedDays,
      })),
    coins,
    ownerPublicKey: owner?.publicKey ?? null,
  };
}
