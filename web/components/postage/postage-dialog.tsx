import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { POSTAGE_PRICE_TYPING_PATTERN, type PostageOption, PostageOptionInputSchema } from "../../../contract";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { LanguageTabs, useShopLanguages } from "@/components/language-tabs";
import { TranslatedNameFields } from "@/components/translated-name-fields";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/hooks/use-toast";
import { useUnsavedDialog } from "@/lib/unsaved-changes";
import { useCreatePostageOption, useUpdatePostageOption } from "@/lib/queries";
import { describeError } from "@/lib/api";

type FormInput = z.input<typeof PostageOptionInputSchema>;
type FormOutput = z.output<typeof PostageOptionInputSchema>;

const EMPTY: FormInput = { name: "", description: "", price: "", estimatedDays: "", isActive: true };

/** With more than one language offered the form holds the translations too (issue 26); with one, it sends none. */
function valuesOf(option: PostageOption | null, translated: boolean): FormInput {
  const translations = translated ? { translations: structuredClone(option?.translations ?? {}) } : {};
  if (!option) return { ...EMPTY, ...translations };
  return {
    ...translations,
    name: option.name,
    description: option.description ?? "",
    price: option.price,
    estimatedDays: option.estimatedDays == null ? "" : String(option.estimatedDays),
    isActive: option.isActive,
  };
}

export function PostageDialog({
  open,
  onOpenChange,
  option,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The option being edited, or null to add one. */
  option: PostageOption | null;
}) {
  const createOption = useCreatePostageOption();
  const updateOption = useUpdatePostageOption();
  const { languages, defaultLanguage } = useShopLanguages();
  const translated = languages.length > 1;
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(PostageOptionInputSchema),
    defaultValues: valuesOf(option, translated),
  });
  // Leaving or closing with changes not saved asks first (issue 22, item 3).
  const closeAsking = useUnsavedDialog(open, form.formState.isDirty, onOpenChange);

  const { reset } = form;
  useEffect(() => {
    if (open) reset(valuesOf(option, translated));
  }, [open, option, reset, translated]);

  const pending = createOption.isPending || updateOption.isPending;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (option) {
        await updateOption.mutateAsync({ id: option.id, data: values });
        toast({ title: "Postage option updated successfully!" });
      } else {
        await createOption.mutateAsync(values);
        toast({ title: "Postage option added successfully!" });
      }
      onOpenChange(false);
    } catch (error) {
      toast(
        option
          ? { title: "Failed to update postage option", description: describeError(error), variant: "destructive" }
          : { title: `Failed to add postage option: ${describeError(error)}`, variant: "destructive" },
      );
    }
  });

  return (
    <Dialog open={open} onOpenChange={closeAsking}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>{option ? "Edit Postage Option" : "Add Postage Option"}</DialogTitle>
          <DialogDescription>
            {option ? "Update this shipping method." : "Add a shipping method customers can choose at checkout."}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={onSubmit} className="space-y-4" noValidate>
            <LanguageTabs languages={languages} label="Language of the name and description">
              {(language, isDefault) =>
                isDefault ? (
                  <>
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Service Name</FormLabel>
                  <FormControl>
                    <Input placeholder="e.g., Royal Mail 1st Class" autoComplete="off" {...field} />
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
                    <Textarea placeholder="e.g., Tracked, signed for" rows={2} {...field} value={field.value ?? ""} />
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
                    nameLabel="Service Name"
                    descriptionLabel="Description"
                  />
                )
              }
            </LanguageTabs>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                control={form.control}
                name="price"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Price (£)</FormLabel>
                    <FormControl>
                      <Input
                        inputMode="decimal"
                        placeholder="4.99"
                        autoComplete="off"
                        {...field}
                        value={String(field.value ?? "")}
                        onChange={(event) => {
                          // Only empty, or digits with an optional point and at most two decimals, get in.
                          if (POSTAGE_PRICE_TYPING_PATTERN.test(event.target.value)) field.onChange(event.target.value);
                        }}
                      />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="estimatedDays"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Estimated Days</FormLabel>
                    <FormControl>
                      <Input
                        type="number"
                        min={1}
                        step={1}
                        inputMode="numeric"
                        placeholder="e.g., 2"
                        {...field}
                        value={field.value == null ? "" : String(field.value)}
                      />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>
            <FormField
              control={form.control}
              name="isActive"
              render={({ field }) => (
                <FormItem className="flex items-center justify-between rounded-md border p-3">
                  <div className="space-y-0.5">
                    <FormLabel>Active</FormLabel>
                    <FormDescription>Offered to customers at checkout</FormDescription>
                  </div>
                  <FormControl>
                    <Switch checked={field.value ?? true} onCheckedChange={field.onChange} />
                  </FormControl>
                </FormItem>
              )}
            />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => closeAsking(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Saving..." : option ? "Update Option" : "Add Option"}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
