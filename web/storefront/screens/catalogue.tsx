import { useId, useMemo, useState } from "react";
import type { StorefrontCategory, StorefrontProduct } from "../../../contract/storefront";
import { formatMoney, toPence } from "../cart";
import { useStorefront } from "../context";
import { ScreenTitle, StockLabel } from "../ui";

// The catalogue: a grid of the products on sale, narrowed by a search and a category (a main
// category takes in its subcategories). What was typed and chosen outlives a visit to a product.

const remembered = { query: "", categoryId: "" };

/** The product's lowest price among its variants, and whether they differ ("from £4.99"). */
function priceOf(product: StorefrontProduct): { money: string; varies: boolean } {
  const prices = product.variants.map((variant) => variant.price);
  if (!prices.length) return { money: product.price, varies: false };
  const lowest = prices.reduce((low, price) => (toPence(price) < toPence(low) ? price : low));
  return { money: lowest, varies: prices.some((price) => toPence(price) !== toPence(lowest)) };
}

/** The category and its subcategories, the ids a filter by it matches. */
function categoryFamily(categories: StorefrontCategory[], id: string): Set<string> {
  return new Set([id, ...categories.filter((category) => category.parentId === id).map((category) => category.id)]);
}

export function CatalogueScreen() {
  const { catalogue, texts, open } = useStorefront();
  const [query, setQuery] = useState(remembered.query);
  const [categoryId, setCategoryId] = useState(remembered.categoryId);
  const searchId = useId();
  const categoryFieldId = useId();

  const mains = catalogue.categories.filter((category) => category.parentId === null);
  const subsOf = (id: string) => catalogue.categories.filter((category) => category.parentId === id);

  const shown = useMemo(() => {
    const words = query.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
    const family = categoryId ? categoryFamily(catalogue.categories, categoryId) : null;
    return catalogue.products.filter((product) => {
      if (family && !(product.categoryId && family.has(product.categoryId))) return false;
      const haystack = `${product.name} ${product.description}`.toLocaleLowerCase();
      return words.every((word) => haystack.includes(word));
    });
  }, [catalogue, query, categoryId]);

  return (
    <>
      <ScreenTitle>{texts.navShop}</ScreenTitle>
      <div className="mb-4 grid gap-3" role="search">
        <div>
          <label htmlFor={searchId} className="sr-only">
            {texts.searchLabel}
          </label>
          <input
            id={searchId}
            type="search"
            value={query}
            placeholder={texts.searchPlaceholder}
            onChange={(event) => {
              setQuery(event.target.value);
              remembered.query = event.target.value;
            }}
            className="min-h-11 w-full rounded-md border border-input bg-card px-3 text-base"
          />
        </div>
        {mains.length > 0 && (
          <div>
            <label htmlFor={categoryFieldId} className="sr-only">
              {texts.categoryLabel}
            </label>
            <select
              id={categoryFieldId}
              value={categoryId}
              onChange={(event) => {
                setCategoryId(event.target.value);
                remembered.categoryId = event.target.value;
              }}
              className="min-h-11 w-full rounded-md border border-input bg-card px-3 text-base"
            >
              <option value="">{texts.allCategories}</option>
              {mains.map((main) => [
                <option key={main.id} value={main.id}>
                  {main.name}
                </option>,
                ...subsOf(main.id).map((sub) => (
                  <option key={sub.id} value={sub.id}>
                    {`\u2003${sub.name}`}
                  </option>
                )),
              ])}
            </select>
          </div>
        )}
      </div>

      <p className="sr-only" role="status">
        {texts.productCount(shown.length)}
      </p>
      {shown.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">{catalogue.products.length ? texts.noProducts : texts.emptyShop}</p>
      ) : (
        <ul className="grid grid-cols-2 gap-3" aria-label={texts.navShop}>
          {shown.map((product) => {
            const price = priceOf(product);
            return (
              <li key={product.id}>
                <button
                  type="button"
                  onClick={() => open({ name: "product", productId: product.id })}
                  className="flex h-full w-full flex-col overflow-hidden rounded-lg border bg-card text-left text-card-foreground focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <span className="block aspect-square w-full bg-muted">
                    {product.imageUrls[0] ? (
                      <img src={product.imageUrls[0]} alt="" loading="lazy" className="size-full object-cover" />
                    ) : (
                      <span className="flex size-full items-center justify-center text-sm text-muted-foreground">{texts.noPhoto}</span>
                    )}
                  </span>
                  <span className="flex flex-1 flex-col gap-1 p-2">
                    <span className="line-clamp-2 font-medium">{product.name}</span>
                    <span className="font-semibold">{price.varies ? texts.fromPrice(formatMoney(price.money)) : formatMoney(price.money)}</span>
                    <StockLabel state={product.stockState} left={product.stockState === "low_stock" ? stockLeft(product) : null} />
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

/** What is left of a low-stock product: its low variants' counts added up (null when none says). */
function stockLeft(product: StorefrontProduct): number | null {
  const counts = product.variants.filter((variant) => variant.stockState === "low_stock" && variant.left !== null).map((variant) => variant.left!);
  return counts.length ? counts.reduce((sum, left) => sum + left, 0) : null;
}
