import { zodResolver } from "@hookform/resolvers/zod";
import { Plus, Trash2 } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { type Category, LOW_STOCK_DEFAULT, NameTranslationsSchema, type Product, type ProductInput, ProductInputSchema } from "../../../contract";
import { ProductImages } from "@/components/products/product-images";
import { ProductVariants } from "@/components/products/product-variants";
import { Button } from "@/components/ui/button";
import { StaleStockAlert } from "./stale-stock-alert";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { LanguageTabs, useShopLanguages } from "@/components/language-tabs";
import { TranslatedNameFields } from "@/components/translated-name-fields";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/hooks/use-toast";
import { useUnsavedDialog } from "@/lib/unsaved-changes";
import { fetchProduct, useCreateProduct, useReloadProducts, useSaveVariants, useUpdateProduct } from "@/lib/queries";
import { ApiError, describeError } from "@/lib/api";
import { categoryOptions, NO_CATEGORY } from "./category-options";
import {
  draftOf,
  fingerprint,
  rowsOf,
  stockOf,
  stockSum,
  usedOptions,
  type VariantsDraft,
  variantsInputOf,
  variantsProblem,
  withServerStock,
} from "./variant-drafts";

// The form keeps what was typed (strings); docs/product.md §5's parsing rules turn it into the API's shape on save.
const ProductFormSchema = z.object({
  name: ProductInputSchema.shape.name,
  description: z.string(),
  price: z
    .string()
    .trim()
    .min(1, "Price is required")
    .regex(/^\d+(\.\d{1,2})?$/, "Enter a price in pounds, e.g. 4.99"),
  stock: z.string(),
  lowStockThreshold: z
    .string()
    .trim()
    .regex(/^\d{1,6}$/, "Enter a whole number of units, e.g. 3")
    .refine((text) => Number(text) <= 100_000, "Enter at most 100000"),
  categoryId: z.string(),
  imageUrls: z.array(z.string()),
  bulkPricing: z.array(z.object({ minQuantity: z.string(), price: z.string() })),
  isActive: z.boolean(),
  // Not an input: the stock shown when the form was opened or its stock reloaded, sent as
  // expectedStock so a save never writes back stock sold meanwhile (docs/product.md rule 2).
  expectedStock: z.number().nullable(),
  // Issue 26: the name and description in the other languages offered; left out with one language.
  translations: NameTranslationsSchema.optional(),
});
type ProductForm = z.infer<typeof ProductFormSchema>;

/** docs/product.md §4: a new product costs '0', has stock 0 and is active. */
const NEW_PRODUCT: ProductForm = {
  name: "",
  description: "",
  price: "0",
  stock: "0",
  lowStockThreshold: String(LOW_STOCK_DEFAULT),
  categoryId: NO_CATEGORY,
  imageUrls: [],
  bulkPricing: [],
  isActive: true,
  expectedStock: null,
};

function valuesOf(product: Product | null, translated: boolean): ProductForm {
  const translations = translated ? { translations: structuredClone(product?.translations ?? {}) } : {};
  if (!product) return { ...NEW_PRODUCT, ...translations };
  return {
    ...translations,
    name: product.name,
    description: product.description,
    price: product.price,
    stock: String(product.stock),
    lowStockThreshold: String(product.lowStockThreshold ?? LOW_STOCK_DEFAULT),
    categoryId: product.categoryId ?? NO_CATEGORY,
    // A product saved before photos were a list has its one image only in imageUrl.
    imageUrls: product.imageUrls ?? (product.imageUrl ? [product.imageUrl] : []),
    bulkPricing: (product.bulkPricing ?? []).map((tier) => ({
      minQuantity: String(tier.minQuantity),
      price: String(tier.price),
    })),
    isActive: product.isActive,
    expectedStock: product.stock,
  };
}

function numberOr(text: string, parse: (text: string) => number, fallback: number): number {
  const n = parse(text);
  return Number.isNaN(n) ? fallback : n;
}

/** docs/product.md §5: stock is an integer (non-numeric 0); a tier's min quantity non-numeric 2, its price 0; no tiers is null. */
export function toProductInput(values: ProductForm): ProductInput {
  return {
    name: values.name,
    description: values.description,
    price: values.price,
    stock: numberOr(values.stock, (t) => parseInt(t, 10), 0),
    lowStockThreshold: numberOr(values.lowStockThreshold, (t) => parseInt(t, 10), LOW_STOCK_DEFAULT),
    categoryId: values.categoryId === NO_CATEGORY ? null : values.categoryId,
    // imageUrls decides (docs/decisions/0033-product-photos.md); imageUrl is sent to match it.
    imageUrl: values.imageUrls[0] ?? null,
    imageUrls: values.imageUrls,
    bulkPricing:
      values.bulkPricing.length === 0
        ? null
        : values.bulkPricing.map((tier) => ({
            minQuantity: numberOr(tier.minQuantity, (t) => parseInt(t, 10), 2),
            price: numberOr(tier.price, parseFloat, 0),
          })),
    isActive: values.isActive,
    ...(values.expectedStock !== null ? { expectedStock: values.expectedStock } : {}),
    ...(values.translations ? { translations: values.translations } : {}),
  };
}

/**
 * A product with options has the sum of its variants' stock, which the product's own save cannot set
 * (issue 23): its stock fields are left out, and each variant's stock goes with the variants' save.
 */
function withoutStock(data: ProductInput): ProductInput {
  const { stock: _stock, expectedStock: _expected, ...rest } = data;
  return rest;
}

/** Where the server's "stock changed meanwhile" sentence (409) is kept until the stock is reloaded. */
const STALE_STOCK_ERROR = "root.staleStock";

export function ProductDialog({
  open,
  onOpenChange,
  product,
  categories,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The product being edited, or null to add one. */
  product: Product | null;
  categories: Category[];
}) {
  const createProduct = useCreateProduct();
  const updateProduct = useUpdateProduct();
  const saveVariants = useSaveVariants();
  // A product created in this visit whose variants did not save yet: the dialog goes on editing it.
  const [created, setCreated] = useState<Product | null>(null);
  const editing = product ?? created;
  // Options & variants (issue 23): their own state, saved by their own PUT (variant-drafts.ts).
  const [variants, setVariants] = useState<VariantsDraft>(() => draftOf(product));
  const [savedVariants, setSavedVariants] = useState(() => fingerprint(draftOf(product)));
  const [variantsProblemText, setVariantsProblemText] = useState<string | null>(null);
  const [staleVariants, setStaleVariants] = useState<string | null>(null);
  const [reloadingVariants, setReloadingVariants] = useState(false);
  const reloadProducts = useReloadProducts();
  const [uploading, setUploading] = useState(false);
  const [reloadingStock, setReloadingStock] = useState(false);
  const { languages, defaultLanguage } = useShopLanguages();
  const translated = languages.length > 1;
  const form = useForm<ProductForm>({
    resolver: zodResolver(ProductFormSchema),
    defaultValues: valuesOf(product, translated),
  });
  const variantsChanged = useMemo(() => fingerprint(variants) !== savedVariants, [variants, savedVariants]);
  const variantRows = useMemo(() => rowsOf(variants), [variants]);
  const hasOptions = usedOptions(variants.options).length > 0;
  // Leaving or closing with changes not saved asks first (issue 22, item 3).
  const closeAsking = useUnsavedDialog(open, form.formState.isDirty || variantsChanged, onOpenChange);
  const tiers = useFieldArray({ control: form.control, name: "bulkPricing" });
  // A variant without its own price is sold at the product's; its image is one of the product's photos.
  const productPrice = useWatch({ control: form.control, name: "price" });
  const photos = useWatch({ control: form.control, name: "imageUrls" });

  const { reset } = form;
  useEffect(() => {
    if (open) reset(valuesOf(product, translated));
  }, [open, product, reset, translated]);
  // The variants editor starts again from the product each time the dialog opens, as the form does
  // above (set while rendering, React's way to follow a prop, rather than in an effect).
  const [loadedFor, setLoadedFor] = useState<{ product: Product | null } | null>(open ? { product } : null);
  if (open && loadedFor?.product !== product) {
    setLoadedFor({ product });
    const draft = draftOf(product);
    setVariants(draft);
    setSavedVariants(fingerprint(draft));
    setCreated(null);
    setVariantsProblemText(null);
    setStaleVariants(null);
  } else if (!open && loadedFor !== null) {
    setLoadedFor(null);
  }

  const pending = createProduct.isPending || updateProduct.isPending || saveVariants.isPending;

  // A price of £0.00 is more often a price not typed yet than a gift (issue 22, item 12): asked first.
  const [freeToConfirm, setFreeToConfirm] = useState<ProductForm | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    if (Number(values.price) === 0) {
      setFreeToConfirm(values);
      return;
    }
    await save(values);
  });

  /**
   * Saves the options and variants of a product that exists; answers false (the reason shown) when
   * they were not saved. Afterwards the editor holds what the server saved, so a later save compares with it.
   */
  const saveVariantsOf = async (id: string, data: ReturnType<typeof variantsInputOf>, failureTitle: string): Promise<boolean> => {
    try {
      const saved = await saveVariants.mutateAsync({ id, data });
      const draft = draftOf(saved);
      setVariants(draft);
      setSavedVariants(fingerprint(draft));
      setStaleVariants(null);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStaleVariants(error.serverMessage ?? error.message);
      else setVariantsProblemText(describeError(error));
      toast({ title: failureTitle, description: describeError(error), variant: "destructive" });
      return false;
    }
  };

  const save = async (values: ProductForm) => {
    // The variants go first: a stale stock among them (409) then leaves the product itself unchanged too.
    const variantsData = variantsChanged ? variantsInputOf(variants, stockOf(values.stock)) : null;
    setVariantsProblemText(null);
    if (variantsData) {
      const problem = variantsProblem(variants, variantsData);
      if (problem) {
        setVariantsProblemText(problem);
        toast({ title: editing ? "Failed to update product" : "Failed to create product", description: problem, variant: "destructive" });
        return;
      }
    }
    const productData = hasOptions || variantsData ? withoutStock(toProductInput(values)) : toProductInput(values);
    try {
      if (editing) {
        if (variantsData && !(await saveVariantsOf(editing.id, variantsData, "Failed to update product"))) return;
        await updateProduct.mutateAsync({ id: editing.id, data: productData });
        toast({ title: "Product updated successfully!" });
      } else {
        const made = await createProduct.mutateAsync(productData);
        if (variantsData) {
          // From here on the dialog edits the product just made, whatever happens to its variants.
          setCreated(made);
          if (!(await saveVariantsOf(made.id, variantsData, "Product created, but its variants were not saved"))) return;
        }
        toast({ title: "Product created successfully!" });
      }
      onOpenChange(false);
    } catch (error) {
      if (editing && error instanceof ApiError && error.status === 409) {
        form.setError(STALE_STOCK_ERROR, { message: error.serverMessage ?? error.message });
      }
      toast({
        title: editing ? "Failed to update product" : "Failed to create product",
        description: describeError(error),
        variant: "destructive",
      });
    }
  };

  /** After a 409: takes the variants' stock the server has now into the table (as the new stock expected); other edits stay. */
  const reloadVariants = async () => {
    if (!editing) return;
    setReloadingVariants(true);
    try {
      const current = await fetchProduct(editing.id);
      setVariants((draft) => withServerStock(draft, current));
      setStaleVariants(null);
    } catch (error) {
      toast({ title: "Failed to reload variants", description: describeError(error), variant: "destructive" });
    } finally {
      setReloadingVariants(false);
    }
  };

  /** Takes the stock the server has now into the form, as the new expectedStock; other edits stay. */
  const reloadStock = async () => {
    if (!product) return;
    setReloadingStock(true);
    try {
      const current = (await reloadProducts()).find((p) => p.id === product.id);
      if (!current) {
        form.setError(STALE_STOCK_ERROR, { message: "This product was deleted meanwhile." });
        return;
      }
      form.setValue("stock", String(current.stock), { shouldDirty: true });
      form.setValue("expectedStock", current.stock);
      form.clearErrors(STALE_STOCK_ERROR);
    } catch (error) {
      toast({ title: "Failed to reload stock", description: describeError(error), variant: "destructive" });
    } finally {
      setReloadingStock(false);
    }
  };
  const staleStock = form.formState.errors.root?.staleStock?.message;

  return (
    <Dialog open={open} onOpenChange={closeAsking}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{editing ? "Edit Product" : "Add New Product"}</DialogTitle>
          <DialogDescription>
            {editing ? "Update the product details below." : "Fill in the details of the new product."}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          {/* min-w-0: the variants table scrolls sideways inside its own box rather than widening the dialog on a phone. */}
          <form onSubmit={onSubmit} className="min-w-0 space-y-4" noValidate>
            <LanguageTabs languages={languages} label="Language of the name and description">
              {(language, isDefault) =>
                isDefault ? (
                  <>
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Product Name</FormLabel>
                  <FormControl>
                    <Input placeholder="e.g., Wireless Headphones" autoComplete="off" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="description"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Description</FormLabel>
                  <FormControl>
                    <Textarea placeholder="Describe the product" rows={3} {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
                  </>
                ) : (
                  <TranslatedNameFields
                    control={form.control}
                    language={language}
                    defaultLanguage={defaultLanguage}
                    nameLabel="Product Name"
                    descriptionLabel="Description"
                  />
                )
              }
            </LanguageTabs>
            <div className="grid items-start gap-4 sm:grid-cols-3">
              <FormField
                control={form.control}
                name="price"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Price (£)</FormLabel>
                    <FormControl>
                      <Input type="number" step="0.01" min="0" inputMode="decimal" {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="stock"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Stock</FormLabel>
                    <FormControl>
                      {hasOptions ? (
                        // Issue 23: with options the stock is the active variants' added up, set row by row below.
                        <Input type="number" readOnly value={String(stockSum(variantRows))} className="bg-muted" data-testid="variants-stock-sum" />
                      ) : (
                        <Input type="number" step="1" min="0" inputMode="numeric" {...field} />
                      )}
                    </FormControl>
                    {hasOptions && <FormDescription>Sum of the variants</FormDescription>}
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="lowStockThreshold"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Low stock alert at</FormLabel>
                    <FormControl>
                      <Input type="number" step="1" min="0" max="100000" inputMode="numeric" {...field} />
                    </FormControl>
                    <FormDescription>Counted as low stock at or below this many units.</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="categoryId"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Category</FormLabel>
                    <Select value={field.value} onValueChange={field.onChange}>
                      <FormControl>
                        <SelectTrigger className="w-full">
                          <SelectValue placeholder="Select a category" />
                        </SelectTrigger>
                      </FormControl>
                      <SelectContent>
                        <SelectItem value={NO_CATEGORY}>No category</SelectItem>
                        {categoryOptions(categories).map((option) => (
                          <SelectItem key={option.id} value={option.id}>
                            {option.label}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>
            {staleStock && (
              <StaleStockAlert
                testId="stale-stock"
                message={staleStock}
                reloadLabel="Reload stock"
                reloading={reloadingStock}
                onReload={() => void reloadStock()}
              />
            )}

            <FormField
              control={form.control}
              name="imageUrls"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Product Images</FormLabel>
                  <ProductImages value={field.value} onChange={field.onChange} onUploadingChange={setUploading} />
                  <FormMessage />
                </FormItem>
              )}
            />

            <ProductVariants
              draft={variants}
              onChange={(draft) => {
                setVariants(draft);
                setVariantsProblemText(null);
              }}
              productPrice={productPrice}
              photos={photos}
              problem={variantsProblemText}
              staleStock={staleVariants}
              onReloadStock={() => void reloadVariants()}
              reloadingStock={reloadingVariants}
            />

            <div role="group" aria-labelledby="bulk-pricing-heading" className="space-y-3 rounded-md border p-3">
              <div className="flex items-center justify-between gap-2">
                <div>
                  <p id="bulk-pricing-heading" className="text-sm font-medium">
                    Bulk Pricing
                  </p>
                  <p className="text-muted-foreground text-xs">Lower unit prices for larger quantities</p>
                </div>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => tiers.append({ minQuantity: "2", price: "0" })}
                >
                  <Plus />
                  Add Tier
                </Button>
              </div>
              {tiers.fields.length === 0 ? (
                <p className="text-muted-foreground text-sm">No bulk pricing tiers</p>
              ) : (
                <ul className="space-y-2">
                  {tiers.fields.map((tier, index) => (
                    <li key={tier.id} className="flex items-end gap-2" data-testid="bulk-tier">
                      <div className="flex-1 space-y-1">
                        <Label htmlFor={`tier-${tier.id}-min`} className="text-xs">
                          Min Quantity
                        </Label>
                        <Input
                          id={`tier-${tier.id}-min`}
                          type="number"
                          min="2"
                          step="1"
                          inputMode="numeric"
                          {...form.register(`bulkPricing.${index}.minQuantity`)}
                        />
                      </div>
                      <div className="flex-1 space-y-1">
                        <Label htmlFor={`tier-${tier.id}-price`} className="text-xs">
                          Price per unit (£)
                        </Label>
                        <Input
                          id={`tier-${tier.id}-price`}
                          type="number"
                          min="0"
                          step="0.01"
                          inputMode="decimal"
                          {...form.register(`bulkPricing.${index}.price`)}
                        />
                      </div>
                      <Button
                        type="button"
                        variant="ghost"
                        size="icon"
                        className="text-destructive hover:text-destructive"
                        onClick={() => tiers.remove(index)}
                        aria-label={`Remove tier ${index + 1}`}
                      >
                        <Trash2 />
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </div>

            <FormField
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <FormItem className="flex items-center justify-between rounded-md border p-3">
                  <div className="space-y-0.5">
                    <FormLabel>Active</FormLabel>
                    <FormDescription>Shown to customers in the bot</FormDescription>
                  </div>
                  <FormControl>
                    <Switch checked={field.value} onCheckedChange={field.onChange} />
                  </FormControl>
                </FormItem>
              )}
            />

            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => closeAsking(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending || uploading}>
                {pending ? "Saving..." : editing ? "Update Product" : "Create Product"}
              </Button>
            </DialogFooter>
          </form>
        </Form>
        <AlertDialog open={freeToConfirm !== null} onOpenChange={(open) => !open && setFreeToConfirm(null)}>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Save as free?</AlertDialogTitle>
              <AlertDialogDescription>
                The price is £0.00: customers will be able to order {freeToConfirm?.name.trim() || "this product"} without paying.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction
                onClick={() => {
                  const values = freeToConfirm;
                  setFreeToConfirm(null);
                  if (values) void save(values);
                }}
              >
                Save as free
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </DialogContent>
    </Dialog>
  );
}
