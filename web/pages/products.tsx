import { Package, Plus, Search } from "lucide-react";
import { useMemo, useState } from "react";
import type { Product } from "../../contract";
import { ListPager, usePaged } from "@/components/list-pager";
import { categoryOptions } from "@/components/products/category-options";
import { ProductDialog } from "@/components/products/product-dialog";
import { ProductCards, ProductTable } from "@/components/products/product-list";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { toast } from "@/hooks/use-toast";
import { useCategories, useDeleteProduct, useProducts } from "@/lib/queries";
import { describeError } from "@/lib/api";
import { DESKTOP_QUERY, useMediaQuery } from "@/lib/screen-helpers";

const ALL = "all";
type StockFilter = "all" | "in-stock" | "out-of-stock";

export default function ProductsPage() {
  const productsQuery = useProducts();
  const categoriesQuery = useCategories();
  const deleteProduct = useDeleteProduct();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const [search, setSearch] = useState("");
  const [categoryFilter, setCategoryFilter] = useState(ALL);
  const [stockFilter, setStockFilter] = useState<StockFilter>("all");
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<Product | null>(null);

  const categories = useMemo(() => categoriesQuery.data ?? [], [categoriesQuery.data]);
  const categoryNames = useMemo(() => new Map(categories.map((c) => [c.id, c.name])), [categories]);
  const categoryName = (id: string | null) => (id && categoryNames.get(id)) || "Uncategorized";

  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    // Choosing a main category also shows the products of its subcategories.
    const chosen =
      categoryFilter === ALL
        ? null
        : new Set([categoryFilter, ...categories.filter((c) => c.parentId === categoryFilter).map((c) => c.id)]);
    return (productsQuery.data ?? []).filter(
      (product) =>
        (!needle || product.name.toLowerCase().includes(needle)) &&
        (!chosen || (product.categoryId !== null && chosen.has(product.categoryId))) &&
        (stockFilter === "all" || (stockFilter === "in-stock" ? product.stock > 0 : product.stock <= 0)),
    );
  }, [productsQuery.data, categories, search, categoryFilter, stockFilter]);

  const filtering = search.trim() !== "" || categoryFilter !== ALL || stockFilter !== "all";
  const paged = usePaged(filtered, `${search}|${categoryFilter}|${stockFilter}`);

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

  const listProps = { products: paged.rows, categoryName, onEdit: openEdit, onDelete: remove };

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
        <div className="relative">
          <Search className="text-muted-foreground absolute top-1/2 left-3 size-4 -translate-y-1/2" aria-hidden="true" />
          <Input
            type="search"
            placeholder="Search products..."
            aria-label="Search products"
            className="pl-9"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <Select value={categoryFilter} onValueChange={setCategoryFilter}>
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
        <Select value={stockFilter} onValueChange={(value) => setStockFilter(value as StockFilter)}>
          <SelectTrigger className="w-full" aria-label="Filter by status">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">All Status</SelectItem>
            <SelectItem value="in-stock">In Stock</SelectItem>
            <SelectItem value="out-of-stock">Out of Stock</SelectItem>
          </SelectContent>
        </Select>
      </div>

      <Card className="gap-0 py-0">
        <CardContent className="p-0">
          {productsQuery.isLoading ? (
            <p className="text-muted-foreground py-12 text-center">Loading products...</p>
          ) : productsQuery.isError ? (
            <p className="text-destructive py-12 text-center">{describeError(productsQuery.error)}</p>
          ) : filtered.length === 0 ? (
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
