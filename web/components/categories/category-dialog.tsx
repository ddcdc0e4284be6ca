import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { type Category, CategoryInputSchema } from "../../../contract";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { LanguageTabs, useShopLanguages } from "@/components/language-tabs";
import { TranslatedNameFields } from "@/components/translated-name-fields";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/hooks/use-toast";
import { useUnsavedDialog } from "@/lib/unsaved-changes";
import { useCreateCategory, useUpdateCategory } from "@/lib/queries";
import { describeError } from "@/lib/api";

type FormInput = z.input<typeof CategoryInputSchema>;
type FormOutput = z.output<typeof CategoryInputSchema>;

// Radix Select cannot hold an empty value, so "main category" has its own token.
const MAIN = "main";

const EMPTY: FormInput = { name: "", description: "", icon: "", parentId: null };

/**
 * With more than one language offered the form holds the translations too (issue 26); with one, it
 * sends none, and an edit keeps those stored.
 */
function valuesOf(category: Category | null, translated: boolean): FormInput {
  const translations = translated ? { translations: structuredClone(category?.translations ?? {}) } : {};
  if (!category) return { ...EMPTY, ...translations };
  return {
    name: category.name,
    description: category.description ?? "",
    icon: category.icon ?? "",
    parentId: category.parentId,
    ...translations,
  };
}

export function CategoryDialog({
  open,
  onOpenChange,
  category,
  categories,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The category being edited, or null to create one. */
  category: Category | null;
  categories: Category[];
}) {
  const createCategory = useCreateCategory();
  const updateCategory = useUpdateCategory();
  const { languages, defaultLanguage } = useShopLanguages();
  const translated = languages.length > 1;
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(CategoryInputSchema),
    defaultValues: valuesOf(category, translated),
  });
  // Leaving or closing with changes not saved asks first (issue 22, item 3).
  const closeAsking = useUnsavedDialog(open, form.formState.isDirty, onOpenChange);

  // Each opening starts from the category being edited, or from an empty form.
  const { reset } = form;
  useEffect(() => {
    if (open) reset(valuesOf(category, translated));
  }, [open, category, reset, translated]);

  const mainCategories = categories.filter((c) => !c.parentId);
  // Only main categories can be parents (two levels), and never the category itself.
  const parentChoices = mainCategories.filter((c) => c.id !== category?.id);
  const pending = createCategory.isPending || updateCategory.isPending;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (category) {
        await updateCategory.mutateAsync({ id: category.id, data: values });
        toast({ title: "Category updated successfully!" });
      } else {
        await createCategory.mutateAsync(values);
        toast({ title: "Category created successfully!" });
      }
      form.reset(EMPTY);
      onOpenChange(false);
    } catch (error) {
      toast({
        title: category ? "Failed to update category" : "Failed to create category",
        description: describeError(error),
        variant: "destructive",
      });
    }
  });

  return (
    <Dialog open={open} onOpenChange={closeAsking}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>{category ? "Edit Category" : "Add New Category"}</DialogTitle>
          <DialogDescription>
            {category ? "Update the category details below." : "Create a new category to organize your products."}
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
                  <FormLabel>Category Name</FormLabel>
                  <FormControl>
                    <Input placeholder="e.g., Electronics" autoComplete="off" {...field} />
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
                  <FormLabel>Description (Optional)</FormLabel>
                  <FormControl>
                    <Textarea
                      placeholder="Brief description of this category"
                      rows={3}
                      {...field}
                      value={field.value ?? ""}
                    />
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
                    nameLabel="Category Name"
                    descriptionLabel="Description (Optional)"
                  />
                )
              }
            </LanguageTabs>
            <FormField
              control={form.control}
              name="parentId"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Category Type</FormLabel>
                  <Select
                    value={field.value || MAIN}
                    onValueChange={(value) => field.onChange(value === MAIN ? null : value)}
                  >
                    <FormControl>
                      <SelectTrigger className="w-full">
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      <SelectItem value={MAIN}>Main Category</SelectItem>
                      {parentChoices.map((parent) => (
                        <SelectItem key={parent.id} value={parent.id}>
                          Subcategory of: {parent.name}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormMessage />
                </FormItem>
              )}
            />
            <div className="bg-muted/60 rounded-md border p-3 text-sm" data-testid="category-options-hint">
              <p className="font-medium">Available Options ({mainCategories.length} main categories)</p>
              <p className="text-muted-foreground mt-1">
                {mainCategories.length === 0
                  ? "No main categories yet. This will be your first main category."
                  : `Create a subcategory under: ${mainCategories.map((c) => c.name).join(", ")}`}
              </p>
            </div>
            <FormField
              control={form.control}
              name="icon"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Icon (Optional)</FormLabel>
                  <FormControl>
                    <Input placeholder="e.g., fas fa-laptop" autoComplete="off" {...field} value={field.value ?? ""} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => closeAsking(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Saving..." : "Save"}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
