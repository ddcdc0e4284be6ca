import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo } from "react";
import { useForm, useWatch } from "react-hook-form";
import { type Coupon, POSTAGE_PRICE_TYPING_PATTERN } from "../../../contract";
import { categoryOptions } from "@/components/products/category-options";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage, useFormField } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { toast } from "@/hooks/use-toast";
import { ApiError, describeError } from "@/lib/api";
import { useCategories, useProducts } from "@/lib/queries";
import { useUnsavedChanges } from "@/lib/unsaved-changes";
import { cn } from "@/lib/utils";
import { type CouponForm, couponFormSchema, type CouponFormOutput, fieldOfServerError, toRequestBody, valuesOf } from "./coupon-form";
import { EligiblePicker } from "./eligible-picker";
import { useCreateCoupon, useUpdateCoupon } from "./queries";

/** The browser's time zone, named under the date inputs: the times typed are the owner's clock. */
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An amount or percentage field: only digits with at most two decimals get in (as a postage price). */
function typedAmount(onChange: (value: string) => void) {
  return (event: React.ChangeEvent<HTMLInputElement>) => {
    if (POSTAGE_PRICE_TYPING_PATTERN.test(event.target.value)) onChange(event.target.value);
  };
}

/** An input with "£" or "%" inside its left edge. */
function Prefixed({ prefix, className, ...props }: React.ComponentProps<typeof Input> & { prefix: string }) {
  return (
    <div className="relative">
      <span className="text-muted-foreground pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm" aria-hidden="true">
        {prefix}
      </span>
      <Input className={cn("pl-7", className)} {...props} />
    </div>
  );
}

/**
 * Upper-cases the code as it is typed (codes are kept in capitals, contract/coupons.ts), keeping the
 * caret where it was: the DOM's value is changed first, so React finds nothing to reset.
 */
function upperCased(onChange: (value: string) => void) {
  return (event: React.ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const upper = input.value.toUpperCase();
    if (upper !== input.value && upper.length === input.value.length) {
      const { selectionStart, selectionEnd } = input;
      input.value = upper;
      input.setSelectionRange(selectionStart, selectionEnd);
    }
    onChange(input.value);
  };
}

const ELIGIBLE_HINT_ID = "coupon-eligible-hint";

/** A picker inside its form item: described by the shared hint and, when there is one, its error. */
function PickerField(props: Omit<React.ComponentProps<typeof EligiblePicker>, "invalid" | "describedBy">) {
  const { error, formMessageId } = useFormField();
  return <EligiblePicker {...props} invalid={!!error} describedBy={error ? `${ELIGIBLE_HINT_ID} ${formMessageId}` : ELIGIBLE_HINT_ID} />;
}

export function CouponDialog({
  open,
  onOpenChange,
  coupon,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The coupon being edited, or null to add one. */
  coupon: Coupon | null;
}) {
  const createCoupon = useCreateCoupon();
  const updateCoupon = useUpdateCoupon();
  const products = useProducts();
  const categories = useCategories();
  const schema = useMemo(() => couponFormSchema(coupon), [coupon]);
  const form = useForm<CouponForm, unknown, CouponFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: valuesOf(coupon),
  });
  // Leaving with changes not saved asks first (issue 22, item 3).
  useUnsavedChanges(open && form.formState.isDirty);

  const { reset } = form;
  useEffect(() => {
    if (open) reset(valuesOf(coupon));
  }, [open, coupon, reset]);

  const kind = useWatch({ control: form.control, name: "kind" });
  const pending = createCoupon.isPending || updateCoupon.isPending;
  const productItems = useMemo(() => products.data?.map((product) => ({ id: product.id, label: product.name })) ?? null, [products.data]);
  const categoryItems = useMemo(() => (categories.data ? categoryOptions(categories.data) : null), [categories.data]);

  const onSubmit = form.handleSubmit(async (values) => {
    const data = toRequestBody(values);
    try {
      if (coupon) {
        await updateCoupon.mutateAsync({ id: coupon.id, data });
        toast({ title: "Coupon updated", description: values.code });
      } else {
        await createCoupon.mutateAsync(data);
        toast({ title: "Coupon added", description: values.code });
      }
      onOpenChange(false);
    } catch (error) {
      const sentence = describeError(error);
      // The server's refusal goes under the field it is about (a code already taken: 409), else above the buttons.
      const field = error instanceof ApiError ? fieldOfServerError(error.status, sentence) : null;
      form.setError(field ?? "root.server", { message: sentence }, { shouldFocus: field !== null });
      toast({ title: coupon ? "Failed to update coupon" : "Failed to add coupon", description: sentence, variant: "destructive" });
    }
  });
  const serverError = form.formState.errors.root?.server?.message;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{coupon ? `Edit Coupon ${coupon.code}` : "Add Coupon"}</DialogTitle>
          <DialogDescription>
            {coupon ? "Change the code's discount and conditions." : "A code customers type at checkout for a discount on their items."}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={onSubmit} className="space-y-4" noValidate>
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <FormField
                control={form.control}
                name="code"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Code</FormLabel>
                    <FormControl>
                      <Input
                        placeholder="e.g., SUMMER15"
                        autoComplete="off"
                        autoCapitalize="characters"
                        spellCheck={false}
                        maxLength={32}
                        className="font-mono"
                        {...field}
                        onChange={upperCased(field.onChange)}
                      />
                    </FormControl>
                    <FormDescription>Letters, digits, - or _. Customers can type it in any case.</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="kind"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Discount type</FormLabel>
                    <Select value={field.value} onValueChange={field.onChange}>
                      <FormControl>
                        <SelectTrigger className="w-full">
                          <SelectValue />
                        </SelectTrigger>
                      </FormControl>
                      <SelectContent>
                        <SelectItem value="percent">Percentage</SelectItem>
                        <SelectItem value="fixed">Fixed amount</SelectItem>
                      </SelectContent>
                    </Select>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="value"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{kind === "percent" ? "Percentage off" : "Amount off"}</FormLabel>
                    <FormControl>
                      <Prefixed
                        prefix={kind === "percent" ? "%" : "£"}
                        inputMode="decimal"
                        placeholder={kind === "percent" ? "e.g., 15" : "e.g., 5.00"}
                        autoComplete="off"
                        {...field}
                        onChange={typedAmount(field.onChange)}
                      />
                    </FormControl>
                    <FormDescription>Taken off the eligible items, never the postage.</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="minSubtotal"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Minimum subtotal (optional)</FormLabel>
                    <FormControl>
                      <Prefixed prefix="£" inputMode="decimal" placeholder="e.g., 20.00" autoComplete="off" {...field} onChange={typedAmount(field.onChange)} />
                    </FormControl>
                    <FormDescription>The items' total the order must reach.</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
              {kind === "percent" && (
                <FormField
                  control={form.control}
                  name="maxDiscount"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Maximum discount (optional)</FormLabel>
                      <FormControl>
                        <Prefixed prefix="£" inputMode="decimal" placeholder="e.g., 10.00" autoComplete="off" {...field} onChange={typedAmount(field.onChange)} />
                      </FormControl>
                      <FormDescription>The most the percentage takes off one order.</FormDescription>
                      <FormMessage />
                    </FormItem>
                  )}
                />
              )}
              <FormField
                control={form.control}
                name="startsAt"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Starts (optional)</FormLabel>
                    <FormControl>
                      <Input type="datetime-local" {...field} />
                    </FormControl>
                    <FormDescription>Your time ({TIME_ZONE}). Empty: from now.</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="endsAt"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Ends (optional)</FormLabel>
                    <FormControl>
                      <Input type="datetime-local" {...field} />
                    </FormControl>
                    <FormDescription>Your time ({TIME_ZONE}). Empty: no end.</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="usageLimit"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Usage limit (optional)</FormLabel>
                    <FormControl>
                      <Input type="number" min={1} step={1} inputMode="numeric" placeholder="e.g., 100" {...field} />
                    </FormControl>
                    <FormDescription>Uses in all, by every customer.</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="perCustomerLimit"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Uses per customer (optional)</FormLabel>
                    <FormControl>
                      <Input type="number" min={1} step={1} inputMode="numeric" placeholder="e.g., 1" {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>

            <FormField
              control={form.control}
              name="firstOrderOnly"
              render={({ field }) => (
                <FormItem className="flex items-center justify-between gap-4 rounded-md border p-3">
                  <div className="space-y-0.5">
                    <FormLabel>First order only</FormLabel>
                    <FormDescription>Only for customers who have not paid for an order before</FormDescription>
                  </div>
                  <FormControl>
                    <Switch checked={field.value} onCheckedChange={field.onChange} />
                  </FormControl>
                </FormItem>
              )}
            />

            <div className="space-y-2">
              <p className="text-muted-foreground text-sm" id={ELIGIBLE_HINT_ID}>
                Leave both lists empty for every product. A product ticked, or in a ticked category, is eligible.
              </p>
              <div className="grid items-start gap-4 sm:grid-cols-2">
                <FormField
                  control={form.control}
                  name="productIds"
                  render={({ field }) => (
                    <FormItem>
                      <PickerField legend="Eligible products" noun={["product", "products"]} items={productItems} value={field.value} onChange={field.onChange} />
                      <FormMessage />
                    </FormItem>
                  )}
                />
                <FormField
                  control={form.control}
                  name="categoryIds"
                  render={({ field }) => (
                    <FormItem>
                      <PickerField legend="Eligible categories" noun={["category", "categories"]} items={categoryItems} value={field.value} onChange={field.onChange} />
                      <FormMessage />
                    </FormItem>
                  )}
                />
              </div>
            </div>

            <FormField
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <FormItem className="flex items-center justify-between gap-4 rounded-md border p-3">
                  <div className="space-y-0.5">
                    <FormLabel>Active</FormLabel>
                    <FormDescription>Customers can use the code (within its dates and limits)</FormDescription>
                  </div>
                  <FormControl>
                    <Switch checked={field.value} onCheckedChange={field.onChange} />
                  </FormControl>
                </FormItem>
              )}
            />

            {serverError && (
              <p role="alert" className="text-destructive text-sm" data-testid="coupon-server-error">
                {serverError}
              </p>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Saving..." : coupon ? "Save Changes" : "Add Coupon"}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
