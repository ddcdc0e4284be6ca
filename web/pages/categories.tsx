import { FolderOpen, Plus } from "lucide-react";
import { EditDeleteActions } from "@/components/edit-delete-actions";
import { useMemo, useState } from "react";
import type { Category } from "../../contract";
import { CategoryDialog } from "@/components/categories/category-dialog";
import { CategoryIcon } from "@/components/categories/category-icon";
import { Button } from "@/components/ui/button";
import { ClampedText } from "@/components/ui/table";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LoadingRows } from "@/components/loading-rows";
import { toast } from "@/hooks/use-toast";
import { useCategories, useDeleteCategory, useProducts } from "@/lib/queries";
import { describeError } from "@/lib/api";

export default function CategoriesPage() {
  const categoriesQuery = useCategories();
  const productsQuery = useProducts();
  const deleteCategory = useDeleteCategory();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<Category | null>(null);

  const categories = useMemo(() => categoriesQuery.data ?? [], [categoriesQuery.data]);
  const mainCategories = categories.filter((c) => !c.parentId);

  // docs/product.md §9: products per category = products whose categoryId equals the category id.
  const productCounts = useMemo(() => {
    const counts = new Map<string, number>();
    for (const product of productsQuery.data ?? []) {
      if (product.categoryId) counts.set(product.categoryId, (counts.get(product.categoryId) ?? 0) + 1);
    }
    return counts;
  }, [productsQuery.data]);
  const productCount = (id: string) => productCounts.get(id) ?? 0;

  const openCreate = () => {
    setEditing(null);
    setDialogOpen(true);
  };
  const openEdit = (category: Category) => {
    setEditing(category);
    setDialogOpen(true);
  };
  const remove = (category: Category) => {
    if (!window.confirm("Are you sure you want to delete this category?")) return;
    deleteCategory.mutate(category.id, {
      onSuccess: () => toast({ title: "Category deleted successfully!" }),
      onError: (error) =>
        toast({ title: "Failed to delete category", description: describeError(error), variant: "destructive" }),
    });
  };

  const actions = (category: Category) => (
    <EditDeleteActions
      name={category.name}
      onEdit={() => openEdit(category)}
      onDelete={() => remove(category)}
      className="shrink-0 items-center"
    />
  );

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Product Categories</h2>
          <p className="text-muted-foreground">Organize your products into main categories and subcategories</p>
        </div>
        <Button onClick={openCreate}>
          <Plus />
          Add Category
        </Button>
      </div>

      <Card>
        <CardHeader className="px-4 sm:px-6">
          <CardTitle>Categories</CardTitle>
          <CardDescription>Main categories with their subcategories</CardDescription>
        </CardHeader>
        <CardContent className="px-4 sm:px-6">
          {categoriesQuery.isLoading ? (
            <LoadingRows label="Loading categories..." />
          ) : categoriesQuery.isError ? (
            <p className="text-destructive py-8 text-center">{describeError(categoriesQuery.error)}</p>
          ) : mainCategories.length === 0 ? (
            <div className="py-12 text-center">
              <FolderOpen className="text-muted-foreground mx-auto mb-3 size-12" />
              <p className="font-medium">No categories yet</p>
              <p className="text-muted-foreground text-sm">Create your first category to organize your products</p>
            </div>
          ) : (
            <ul className="space-y-3" aria-label="Categories">
              {mainCategories.map((main) => {
                const children = categories.filter((c) => c.parentId === main.id);
                return (
                  <li key={main.id} className="rounded-lg border" data-testid="category-item">
                    <div className="flex items-center gap-3 p-3 sm:p-4">
                      <CategoryIcon icon={main.icon} />
                      <div className="min-w-0 flex-1">
                        {/* The whole name, wrapped (a long word broken), never cut off: on a phone there are lines to spare. */}
                        <p className="font-medium break-words" data-testid="category-name">
                          {main.name}
                        </p>
                        <p className="text-muted-foreground text-sm">
                          {/* docs/product.md §2 wording, kept as written (not pluralised). */}
                          {productCount(main.id)} products • {children.length} subcategories
                        </p>
                        {main.description && (
                          <ClampedText text={main.description} lines={2} className="text-muted-foreground mt-0.5 text-xs" />
                        )}
                      </div>
                      {actions(main)}
                    </div>
                    {children.length > 0 && (
                      <ul className="bg-muted/40 space-y-1 border-t py-2 pr-3 pl-8 sm:pl-16" aria-label={`${main.name} subcategories`}>
                        {children.map((child) => (
                          <li key={child.id} className="flex items-center gap-2" data-testid="subcategory-item">
                            <span className="text-muted-foreground" aria-hidden="true">
                              └
                            </span>
                            <span className="min-w-0 flex-1 text-sm break-words" data-testid="subcategory-name">
                              {child.name}{" "}
                              <span className="text-muted-foreground">
                                ({productCount(child.id)} products)
                              </span>
                            </span>
                            {actions(child)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>

      <CategoryDialog open={dialogOpen} onOpenChange={setDialogOpen} category={editing} categories={categories} />
    </div>
  );
}
