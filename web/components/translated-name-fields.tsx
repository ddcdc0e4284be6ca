import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { LANGUAGE_NAMES, type Language } from "../../contract";
import { fallbackHint } from "@/components/language-tabs";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";

/**
 * A language's tab of a category, product or postage option (issue 26): its name and description in
 * that language, in the form's `translations.<language>`. Empty, the default language's show.
 */
export function TranslatedNameFields<Values extends FieldValues>({
  control,
  language,
  defaultLanguage,
  nameLabel,
  descriptionLabel,
}: {
  control: Control<Values>;
  language: Language;
  defaultLanguage: Language;
  nameLabel: string;
  descriptionLabel: string;
}) {
  const inLanguage = ` (${LANGUAGE_NAMES[language]})`;
  return (
    <>
      <FormField
        control={control}
        name={`translations.${language}.name` as FieldPath<Values>}
        render={({ field }) => (
          <FormItem>
            <FormLabel>
              {nameLabel}
              {inLanguage}
            </FormLabel>
            <FormControl>
              <Input autoComplete="off" lang={language} {...field} value={(field.value as string | undefined) ?? ""} />
            </FormControl>
            {!field.value && <FormDescription>{fallbackHint(defaultLanguage)}</FormDescription>}
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        control={control}
        name={`translations.${language}.description` as FieldPath<Values>}
        render={({ field }) => (
          <FormItem>
            <FormLabel>
              {descriptionLabel}
              {inLanguage}
            </FormLabel>
            <FormControl>
              <Textarea rows={3} lang={language} {...field} value={(field.value as string | undefined) ?? ""} />
            </FormControl>
            {!field.value && <FormDescription>{fallbackHint(defaultLanguage)}</FormDescription>}
            <FormMessage />
          </FormItem>
        )}
      />
    </>
  );
}
