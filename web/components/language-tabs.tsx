import { Tabs } from "radix-ui";
import { useId, useState, type ReactNode } from "react";
import { DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, type Language } from "../../contract";
import { useCan } from "@/lib/account";
import { useBotSettings } from "@/lib/queries";
import { cn } from "@/lib/utils";

// Issue 26: the texts a customer reads (a product's name, the welcome message, a broadcast) can be
// written once per language the shop offers. The default language's tab holds the fields as they
// always were; the other tabs hold the translations. A shop offering one language sees no tabs at all.

export type ShopLanguages = {
  /** The default first, then the others in the bot's menu order. */
  languages: Language[];
  defaultLanguage: Language;
};

/** The languages offered, default first; one language in every other case. */
export function orderedLanguages(offered: readonly Language[], defaultLanguage: Language): Language[] {
  return [defaultLanguage, ...LANGUAGES.filter((language) => language !== defaultLanguage && offered.includes(language))];
}

/**
 * The languages the shop offers, as Bot Settings holds them. Read only by those who may see Bot
 * Settings ("bot"); anyone else, and the screens while it loads, get the default language alone.
 */
export function useShopLanguages(): ShopLanguages {
  const canReadSettings = useCan("bot");
  const settings = useBotSettings({ enabled: canReadSettings });
  const saved = canReadSettings ? settings.data : null;
  const defaultLanguage = saved?.defaultLanguage ?? DEFAULT_LANGUAGE;
  return { languages: orderedLanguages(saved?.languages ?? [defaultLanguage], defaultLanguage), defaultLanguage };
}

/**
 * One tab per language; `children` draws a tab's fields. With a single language, just its fields,
 * as the screens were before languages. Every tab stays mounted (hidden when not chosen), so the
 * form keeps what was typed in each.
 */
export function LanguageTabs({
  languages,
  label,
  children,
  className,
}: {
  languages: Language[];
  /** What the tabs choose between, for screen readers ("Language of the name and description"). */
  label: string;
  children: (language: Language, isDefault: boolean) => ReactNode;
  className?: string;
}) {
  const [chosen, setChosen] = useState<string>(languages[0]!);
  const id = useId();
  if (languages.length <= 1) return <>{children(languages[0]!, true)}</>;
  const current = languages.includes(chosen as Language) ? chosen : languages[0]!;
  return (
    <Tabs.Root value={current} onValueChange={setChosen} className={cn("space-y-3", className)} data-testid="language-tabs">
      <Tabs.List aria-label={label} className="bg-muted inline-flex flex-wrap gap-1 rounded-md p-1">
        {languages.map((language, index) => (
          <Tabs.Trigger
            key={language}
            value={language}
            id={`${id}-tab-${language}`}
            className="text-muted-foreground data-[state=active]:bg-background data-[state=active]:text-foreground focus-visible:ring-ring/50 rounded-sm px-3 py-1 text-sm font-medium outline-none focus-visible:ring-[3px] data-[state=active]:shadow-sm"
          >
            {LANGUAGE_NAMES[language]}
            {index === 0 && <span className="sr-only"> (default)</span>}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {languages.map((language, index) => (
        <Tabs.Content key={language} value={language} forceMount className="space-y-4 data-[state=inactive]:hidden">
          {children(language, index === 0)}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

/** Under an empty translation: what customers see instead. */
export function fallbackHint(defaultLanguage: Language): string {
  return `Left empty, customers see the ${LANGUAGE_NAMES[defaultLanguage]} text.`;
}
