import { inArray } from "drizzle-orm";
import type { Language, NameTranslations, TextTranslations } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { products } from "../../db/schema";

// The owner's own texts (catalogue names, the welcome message, the FAQ, a broadcast) in the
// customer's language. The row's own fields are the default language's: a language, or a field of
// it, that has no translation falls back to them.

type Translated = { name: string; description?: string | null; translations?: NameTranslations | null };

export function localizedName(entity: Translated, language: Language): string {
  return entity.translations?.[language]?.name?.trim() || entity.name;
}

export function localizedDescription(entity: Translated, language: Language): string {
  return entity.translations?.[language]?.description?.trim() || (entity.description ?? "");
}

/** A text with its translations (the welcome message, the FAQ, a broadcast's text). */
export function localizedText(text: string, translations: TextTranslations | null | undefined, language: Language): string {
  return translations?.[language]?.trim() || text;
}

/** The entity with its name and description in the language, for code that reads those two fields. */
export function inLanguage<T extends Translated>(entity: T, language: Language): T {
  const texts = entity.translations?.[language];
  if (!texts?.name?.trim() && !texts?.description?.trim()) return entity;
  return { ...entity, name: localizedName(entity, language), description: localizedDescription(entity, language) };
}

/**
 * The products' names in a language, by product id, for lines that carry only the product's own name
 * (cart lines, checkout lines). Only products with a translation in that language are listed.
 */
export async function translatedProductNames(db: DbOrTx, productIds: readonly string[], language: Language): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return found;
  const rows = await db.select({ id: products.id, name: products.name, translations: products.translations }).from(products).where(inArray(products.id, ids));
  for (const row of rows) {
    const name = localizedName(row, language);
    if (name !== row.name) found.set(row.id, name);
  }
  return found;
}
