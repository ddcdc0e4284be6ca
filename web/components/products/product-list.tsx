import { ImageIcon } from "lucide-react";
import { EditDeleteActions } from "@/components/edit-delete-actions";
import type { Product } from "../../../contract";
import { Badge } from "@/components/ui/badge";
import { ClampedText, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";
import { formatGBP } from "@/lib/screen-helpers";

type RowProps = {
  products: Product[];
  categoryName: (id: string | null) => string;
  onEdit: (product: Product) => void;
  onDelete: (product: Product) => void;
};

function Thumbnail({ product, className }: { product: Product; className?: string }) {
  return (
    <div className={cn("bg-muted flex shrink-0 items-center justify-center overflow-hidden rounded-md border", className)}>
      {product.imageUrl ? (
        <img src={product.imageUrl} alt={product.name} className="size-full object-cover" loading="lazy" />
      ) : (
        <ImageIcon className="text-muted-foreground size-5" aria-hidden="true" />
      )}
    </div>
  );
}

/** docs/product.md §2: bulk tiers read 'N+ for £price'. */
function BulkTiers({ product }: { product: Product }) {
  if (!product.bulkPricing?.length) return null;
  return (
    <ul className="text-muted-foreground space-y-0.5 text-xs">
      {product.bulkPricing.map((tier) => (
        <li key={tier.minQuantity}>
          {tier.minQuantity}+ for {formatGBP(tier.price)}
        </li>
      ))}
    </ul>
  );
}

/**
 * Issue 23: a product with options reads "3 variants · 12 in stock" (its stock is the active
 * variants' added up); one sold in one kind, its stock alone.
 */
export function stockSummary(product: Pick<Product, "options" | "variants" | "stock">): string | null {
  if (product.options.length === 0) return null;
  const count = product.variants.length;
  return `${count === 1 ? "1 variant" : `${count} variants`} · ${product.stock} in stock`;
}

function StatusBadges({ product }: { product: Product }) {
  return (
    <div className="flex flex-wrap gap-1">
      {product.stock > 0 ? (
        <Badge className="bg-green-700 text-white">In Stock</Badge>
      ) : (
        <Badge variant="destructive">Out of Stock</Badge>
      )}
      {!product.isActive && <Badge variant="secondary">Inactive</Badge>}
    </div>
  );
}

function Actions({ product, onEdit, onDelete }: { product: Product } & Pick<RowProps, "onEdit" | "onDelete">) {
  // Never squeezed by a long name beside it: the name wraps instead.
  return <EditDeleteActions name={product.name} onEdit={() => onEdit(product)} onDelete={() => onDelete(product)} className="shrink-0" />;
}

export function ProductTable({ products, categoryName, onEdit, onDelete }: RowProps) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead className="pl-4">Product</TableHead>
          <TableHead>Category</TableHead>
          <TableHead>Price (GBP)</TableHead>
          <TableHead>Stock</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="pr-4 text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {products.map((product) => (
          <TableRow key={product.id} data-testid="product-row">
            <TableCell wrap className="min-w-56 pl-4">
              <div className="flex max-w-md items-center gap-3">
                <Thumbnail product={product} className="size-10" />
                <div className="min-w-0">
                  {/* The whole name, wrapped (a long word broken) rather than cut: it is how the owner tells products apart. */}
                  <p className="font-medium" data-testid="product-name">
                    {product.name}
                  </p>
                  {product.description && <ClampedText text={product.description} lines={1} className="text-muted-foreground text-xs" />}
                </div>
              </div>
            </TableCell>
            <TableCell wrap>
              {/* At most a column's share: the product's own name gets the room. */}
              <div className="max-w-48">{categoryName(product.categoryId)}</div>
            </TableCell>
            <TableCell>
              <p className="font-medium">{formatGBP(product.price)}</p>
              <BulkTiers product={product} />
            </TableCell>
            <TableCell data-testid="product-stock">{stockSummary(product) ?? product.stock}</TableCell>
            <TableCell>
              <StatusBadges product={product} />
            </TableCell>
            <TableCell className="pr-4">
              <Actions product={product} onEdit={onEdit} onDelete={onDelete} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function ProductCards({ products, categoryName, onEdit, onDelete }: RowProps) {
  return (
    <ul className="divide-y">
      {products.map((product) => (
        <li key={product.id} className="flex gap-3 p-4" data-testid="product-card">
          <Thumbnail product={product} className="size-16" />
          <div className="min-w-0 flex-1 space-y-1">
            <div className="flex items-start justify-between gap-2">
              {/* Names wrap (a long word is broken) rather than being cut off: a phone has the lines to spare. */}
              <div className="min-w-0 flex-1">
                <p className="font-medium [overflow-wrap:anywhere]" data-testid="product-card-name">
                  {product.name}
                </p>
                <p className="text-muted-foreground text-xs [overflow-wrap:anywhere]">{categoryName(product.categoryId)}</p>
              </div>
              <Actions product={product} onEdit={onEdit} onDelete={onDelete} />
            </div>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <span className="font-medium">{formatGBP(product.price)}</span>
              <span className="text-muted-foreground" data-testid="product-card-stock">
                {stockSummary(product) ?? `Stock: ${product.stock}`}
              </span>
              <StatusBadges product={product} />
            </div>
            <BulkTiers product={product} />
          </div>
        </li>
      ))}
    </ul>
  );
}
