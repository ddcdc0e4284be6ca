import { Package, Plus } from "lucide-react";
import { useMemo, useState } from "react";
import type { Product } from "../../contract";
import { ListPager, PAGE_SIZE } from "@/components/list-pager";
import { categoryOptions } from "@/components/products/category-options";
import { ProductDialog } from "@/components/products/product-dialog";
import { ProductCards, ProductTable } from "@/components/products/product-list";
import { SearchBox, useListUrl, useServerPager } from "@/components/server-list";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { LoadingRows } from "@/components/loading-rows";
import { toast } from "@/hooks/use-toast";
import { useCategories, useDeleteProduct, useProductPage } from "@/lib/queries";
import { describeError } from "@/lib/api";
import { DESKTOP_QUERY, useMediaQuery } from "@/lib/screen-helpers";

const ALL = "all";
/** The stock filters docs/product.md §2 offers (the server also knows active/inactive, which the screen does not show). */
const STOCK_FILTERS = ["in-stock", "out-of-stock", "low-stock"] as const;
type StockFilter = "all" | (typeof STOCK_FILTERS)[number];

const isStockFilter = (value: string | null): value is StockFilter =>
  value === ALL || STOCK_FILTERS.includes(value as (typeof STOCK_FILTERS)[number]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function ProductsPage() {
  // Search, filters and page live in the URL (issue 12) and are applied by the server.
  const url = useListUrl();
  const q = url.params.get("q") ?? "";
  const statusParam = url.params.get("status");
  const stockFilter: StockFilter = isStockFilter(statusParam) ? statusParam : ALL;
  const categoriesQuery = useCategories();
  const categories = useMemo(() => categoriesQuery.data ?? [], [categoriesQuery.data]);
  const categoryParam = url.params.get("category");
  // A category that does not exist (deleted since the link was made) filters nothing.
  const categoryFilter =
    categoryParam && UUID.test(categoryParam) && !(categoriesQuery.isSuccess && !categories.some((c) => c.id === categoryParam))
      ? categoryParam
      : ALL;

  const productsQuery = useProductPage({
    limit: PAGE_SIZE,
    q: q || undefined,
    categoryId: categoryFilter === ALL ? undefined : categoryFilter,
    status: stockFilter === ALL ? undefined : stockFilter,
    cursor: url.position.cursor ?? undefined,
  });
  const paged = useServerPager({ url, query: productsQuery, resetKey: `${q}|${categoryFilter}|${stockFilter}`, pageSize: PAGE_SIZE });
  const products = productsQuery.data?.rows ?? [];
  const deleteProduct = useDeleteProduct();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<Product | null>(null);

  const categoryNames = useMemo(() => new Map(categories.map((c) => [c.id, c.name])), [categories]);
  const categoryName = (id: string | null) => (id && categoryNames.get(id)) || "Uncategorized";
  const filtering = q !== "" || categoryFilter !== ALL || stockFilter !== ALL;

  const openCreate = () => {
    setEditing(null);
    setDialogOpen(true);
  };
  const openEdit = (product: Product) => {
    setEditing(product);
    setDialogOpen(true);
  };
  const remove = (product: Product) => {
    if (!window.confirm("Are you sure you want to delete this product?")) return;
    deleteProduct.mutate(product.id, {
      onSuccess: () => toast({ title: "Product deleted successfully!" }),
      onError: (error) =>
        toast({ title: "Failed to delete product", description: describeError(error), variant: "destructive" }),
    });
  };

  const listProps = { products, categoryName, onEdit: openEdit, onDelete: remove };

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Product Management</h2>
          <p className="text-muted-foreground">Manage your catalogue, stock and prices</p>
        </div>
        <Button onClick={openCreate}>
          <Plus />
          Add Product
        </Button>
      </div>

      <div className="grid gap-3 md:grid-cols-[1fr_220px_180px]">
        <SearchBox
          query={q}
          onSearch={(text) => url.setFilter({ q: text })}
          label="Search products"
          placeholder="Search products..."
          title="Part of a product's name"
        />
        <Select value={categoryFilter} onValueChange={(value) => url.setFilter({ category: value === ALL ? null : value })}>
          <SelectTrigger className="w-full" aria-label="Filter by category">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All Categories</SelectItem>
            {categoryOptions(categories).map((option) => (
              <SelectItem key={option.id} value={option.id} className={option.isChild ? "pl-5" : undefined}>
                {option.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={stockFilter} onValueChange={(value) => url.setFilter({ status: value === ALL ? null : value })}>
          <SelectTrigger className="w-full" aria-label="Filter by status">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">All Status</SelectItem>
            <SelectItem value="in-stock">In Stock</SelectItem>
            <SelectItem value="out-of-stock">Out of Stock</SelectItem>
            <SelectItem value="low-stock">Low Stock</SelectItem>
          </SelectContent>
        </Select>
      </div>

      <Card className="gap-0 py-0">
        <CardContent className="p-0">
          {productsQuery.isLoading ? (
            <LoadingRows label="Loading products..." />
          ) : productsQuery.isError ? (
            <p className="text-destructive py-12 text-center">{describeError(productsQuery.error)}</p>
          ) : products.length === 0 ? (
            <div className="py-12 text-center">
              <Package className="text-muted-foreground mx-auto mb-3 size-12" />
              <p className="font-medium">No products found</p>
              <p className="text-muted-foreground text-sm">
                {filtering ? "Try adjusting your search or filters" : "Create your first product to start selling"}
              </p>
            </div>
          ) : isDesktop ? (
            <ProductTable {...listProps} />
          ) : (
            <ProductCards {...listProps} />
          )}
        </CardContent>
      </Card>
      <ListPager paged={paged} label="products" />

      <ProductDialog open={dialogOpen} onOpenChange={setDialogOpen} product={editing} categories={categories} />
    </div>
  );
}
