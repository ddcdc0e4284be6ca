import type { Category } from "../../../contract";

/** Select value for "no category" (Radix Select cannot hold an empty value). */
export const NO_CATEGORY = "none";

export type CategoryOption = { id: string; label: string; isChild: boolean };

/**
 * Categories for a select: each main category followed by its subcategories, which carry a marker
 * (docs/product.md §2). Subcategories whose parent is missing still appear, at the end.
 */
export function categoryOptions(categories: Category[]): CategoryOption[] {
  const mains = categories.filter((c) => !c.parentId);
  const mainIds = new Set(mains.map((c) => c.id));
  const options: CategoryOption[] = [];
  for (const main of mains) {
    options.push({ id: main.id, label: main.name, isChild: false });
    for (const child of categories.filter((c) => c.parentId === main.id)) {
      options.push({ id: child.id, label: `↳ ${child.name}`, isChild: true });
    }
  }
  for (const orphan of categories.filter((c) => c.parentId && !mainIds.has(c.parentId))) {
    options.push({ id: orphan.id, label: `↳ ${orphan.name}`, isChild: true });
  }
  return options;
}
