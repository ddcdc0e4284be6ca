import { zodResolver } from "@hookform/resolvers/zod";
import { AlertTriangle, CheckCircle2, CreditCard, ExternalLink, Globe, Languages, RotateCcw, Save, Settings2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm, useFormContext, useWatch } from "react-hook-form";
import type { z } from "zod";
import {
  BotSettingsInputSchema,
  CURRENCIES,
  DEFAULT_LANGUAGE,
  LANGUAGE_NAMES,
  LANGUAGES,
  SECRET_SETTINGS_FIELDS,
  TOKEN_REFUSED_MESSAGE,
  type BotSettings,
  type Currency,
  type Language,
  type TokenCheck,
} from "../../contract";
import { fallbackHint, LanguageTabs, orderedLanguages } from "@/components/language-tabs";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { OwnerAlertsCard } from "@/components/bot-settings/owner-alerts-card";
import { PaymentGatewaysCard } from "@/components/bot-settings/payment-gateways-card";
import { PrivacyCard } from "@/components/bot-settings/privacy-card";
import { PrivateAddressesCard } from "@/components/bot-settings/private-addresses-card";
import { SecretInput } from "@/components/bot-settings/secret-input";
import { BotStatusCard, useReloadBotStatus } from "@/components/bot-status-card";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { LoadingRows } from "@/components/loading-rows";
import { toast } from "@/hooks/use-toast";
import { IfCan, useCan } from "@/lib/account";
import { useUnsavedChanges } from "@/lib/unsaved-changes";
import { ApiError, describeError } from "@/lib/api";
import { useBotSettings, useCreateBotSettings, useSetupChecklist, useUpdateBotSettings, useWebhookAddresses } from "@/lib/queries";
import { paymentsWebhookUrl, telegramWebhookUrl, withReplitHost } from "@/lib/webhooks";

type FormInput = z.input<typeof BotSettingsInputSchema>;
type FormOutput = z.output<typeof BotSettingsInputSchema>;

const CURRENCY_NAMES: Record<Currency, string> = { BTC: "Bitcoin", LTC: "Litecoin", XMR: "Monero" };

const BOTFATHER_STEPS = [
  "Copy the webhook URL above",
  "Open @BotFather in Telegram",
  "Send /mybots",
  "Choose your bot",
  "Select Bot Settings",
  "Select Domain",
  "Paste the webhook URL",
];

/** POST and PUT answer the saved settings plus what Telegram said of the token (contract TokenCheckSchema). */
type SavedSettings = BotSettings & { tokenCheck?: TokenCheck };

export default function BotSettingsPage() {
  const settings = useBotSettings();
  const loaded = !settings.isLoading;
  // A link to a part of this page (the Dashboard's "Set up payments": #payment-gateway) scrolls there
  // once the form is on screen; a link within the app changes the history, which scrolls nowhere itself.
  useEffect(() => {
    if (!loaded || !window.location.hash) return;
    document.getElementById(decodeURIComponent(window.location.hash.slice(1)))?.scrollIntoView({ block: "start" });
  }, [loaded]);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">Bot Configuration</h2>
        <p className="text-muted-foreground">Configure your Telegram bot settings and preferences</p>
      </div>
      {settings.isLoading ? (
        <LoadingRows label="Loading settings..." rows={6} />
      ) : settings.isError ? (
        <p role="alert" className="border-destructive/30 bg-destructive/5 text-destructive rounded-md border p-3 text-sm">
          The settings could not be loaded: {settings.error.message}
        </p>
      ) : (
        <SettingsForm settings={settings.data ?? null} />
      )}
      {/* Cards that save on their own, outside the bot's settings form and its Save button. The gateways
          and the privacy cards are the owner's ("payments", "privacy": contract/team.ts). */}
      <IfCan permission="payments">
        <PaymentGatewaysCard />
      </IfCan>
      <OwnerAlertsCard />
      <IfCan permission="privacy">
        <PrivacyCard />
        <PrivateAddressesCard />
      </IfCan>
    </div>
  );
}

function toFormValues(settings: BotSettings | null): FormInput {
  return {
    botName: settings?.botName ?? "",
    // Masked when stored: sent back as they are, they keep the stored secrets.
    ...secretsOf(settings),
    acceptedCurrencies: settings?.acceptedCurrencies ?? [...CURRENCIES],
    welcomeMessage: settings?.welcomeMessage ?? "",
    faqContent: settings?.faqContent ?? "",
    // Not edited on this screen: whatever was stored is kept.
    webhookUrl: settings?.webhookUrl ?? null,
    underpaymentTolerancePercent: String(settings?.underpaymentTolerancePercent ?? 1),
    languages: settings?.languages ?? [DEFAULT_LANGUAGE],
    defaultLanguage: settings?.defaultLanguage ?? DEFAULT_LANGUAGE,
    welcomeMessageTranslations: structuredClone(settings?.welcomeMessageTranslations ?? {}),
    faqContentTranslations: structuredClone(settings?.faqContentTranslations ?? {}),
  };
}

/** The secrets' form values: their masks when stored, else empty. */
function secretsOf(settings: BotSettings | null) {
  return {
    botToken: settings?.botToken ?? "",
    nowpaymentsApiKey: settings?.nowpaymentsApiKey ?? "",
    nowpaymentsIpnSecret: settings?.nowpaymentsIpnSecret ?? "",
  };
}

/**
 * Under the coins (issue 22, item 8): ticking them does not let customers pay until the gateway has
 * its keys, as the server sees the saved settings (GET /api/dashboard/setup). Nothing while it loads.
 */
function PaymentsSetupNeeded() {
  const setup = useSetupChecklist();
  if (!setup.data || setup.data.paymentGatewayConfigured) return null;
  return (
    <p data-testid="payments-setup-needed" role="status" className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
      <AlertTriangle className="mt-0.5 size-4 shrink-0" />
      <span>
        Setup needed: customers cannot pay until the payment gateway has its API key and IPN secret.{" "}
        <a href="#payment-gateway" className="font-medium underline underline-offset-2">
          Set up payments
        </a>
      </span>
    </p>
  );
}

/** docs/product.md §4: with a stored record (it has an id) saving updates it, otherwise it creates one. */
function SettingsForm({ settings }: { settings: BotSettings | null }) {
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(BotSettingsInputSchema),
    defaultValues: toFormValues(settings),
  });
  // Leaving with changes not saved asks first (issue 22, item 3).
  useUnsavedChanges(form.formState.isDirty);
  const createSettings = useCreateBotSettings();
  const updateSettings = useUpdateBotSettings();
  const saving = createSettings.isPending || updateSettings.isPending;
  const apiKey = useWatch({ control: form.control, name: "nowpaymentsApiKey" });
  // The welcome message and the FAQ get a tab per language as it is ticked, before it is saved.
  const offered = useWatch({ control: form.control, name: "languages" }) ?? [DEFAULT_LANGUAGE];
  const defaultLanguage = useWatch({ control: form.control, name: "defaultLanguage" }) ?? DEFAULT_LANGUAGE;
  const tabs = orderedLanguages(offered, defaultLanguage);
  const reloadStatus = useReloadBotStatus();
  const addresses = useWebhookAddresses();
  const paymentsAddress = addresses.data?.paymentsWebhookUrl ?? paymentsWebhookUrl();
  // A manager saves the rest of the form; the token and the gateway's keys stay as they are (issue 25).
  const canChangeToken = useCan("bot.token");
  const canChangeKeys = useCan("payments");
  // Telegram could not check the token at the last save: it was saved, and the owner should know.
  const [tokenWarning, setTokenWarning] = useState<string | null>(null);

  // The secrets as the server answered them: masked when stored (contract/secret-mask.ts).
  const [savedSecrets, setSavedSecrets] = useState(() => secretsOf(settings));

  const saved = (title: string) => (answer: SavedSettings) => {
    // The typed secrets leave the form: it holds the answered masks again, shown as "set (…wxyz)".
    const secrets = secretsOf(answer);
    setSavedSecrets(secrets);
    for (const name of SECRET_SETTINGS_FIELDS) form.resetField(name, { defaultValue: secrets[name] });
    // What was saved is the form's new starting point: nothing unsaved is left to warn about.
    form.reset(form.getValues());
    const warning = answer.tokenCheck?.warning ?? null;
    setTokenWarning(warning);
    toast({ title, ...(warning ? { description: warning } : {}) });
    void reloadStatus();
  };
  const failed = (title: string) => (error: Error) => {
    // Telegram refusing the token is the token field's error, where the owner fixes it.
    const message = error instanceof ApiError ? error.serverMessage : undefined;
    if (message === TOKEN_REFUSED_MESSAGE) {
      form.setError("botToken", { type: "server", message }, { shouldFocus: true });
    }
    toast({ title, description: describeError(error), variant: "destructive" });
  };

  const onSubmit = (data: FormOutput) => {
    if (settings?.id) {
      updateSettings.mutate({ id: settings.id, data }, { onSuccess: saved("Settings updated successfully!"), onError: failed("Failed to update settings") });
    } else {
      createSettings.mutate(data, { onSuccess: saved("Settings created successfully!"), onError: failed("Failed to create settings") });
    }
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} className="space-y-6" noValidate>
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Settings2 className="text-muted-foreground size-5" />
              Bot Settings
            </CardTitle>
            <CardDescription>Your bot's identity, the coins it accepts and what it tells customers</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6 md:grid-cols-2">
            <div className="space-y-5">
              <FormField
                control={form.control}
                name="botName"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Bot Name</FormLabel>
                    <FormControl>
                      <Input placeholder="My Shop Bot" {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="botToken"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Bot Token</FormLabel>
                    <SecretInput label="Bot Token" placeholder="123456789:ABCdef..." saved={savedSecrets.botToken} field={field} locked={!canChangeToken} />
                    <FormDescription>Get your bot token from @BotFather on Telegram</FormDescription>
                    <FormMessage />
                    {tokenWarning && (
                      <p data-testid="token-warning" role="status" className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900">
                        <AlertTriangle className="mt-0.5 size-4 shrink-0" />
                        {tokenWarning}
                      </p>
                    )}
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="acceptedCurrencies"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Accepted Cryptocurrencies</FormLabel>
                    <div className="grid gap-2 sm:grid-cols-3">
                      {CURRENCIES.map((code) => {
                        const checked = field.value.includes(code);
                        return (
                          <label
                            key={code}
                            className="has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-accent flex cursor-pointer items-center gap-2 rounded-md border p-3 text-sm font-medium"
                          >
                            <Checkbox
                              checked={checked}
                              aria-label={code}
                              onCheckedChange={(on) =>
                                field.onChange(on ? [...field.value, code] : field.value.filter((c) => c !== code))
                              }
                            />
                            <span>
                              {code} <span className="text-muted-foreground font-normal">{CURRENCY_NAMES[code]}</span>
                            </span>
                          </label>
                        );
                      })}
                    </div>
                    <FormMessage />
                    <PaymentsSetupNeeded />
                  </FormItem>
                )}
              />
            </div>
            <LanguageTabs languages={tabs} label="Language of the welcome message and FAQ" className="space-y-5">
              {(language, isDefault) =>
                isDefault ? (
            <div className="space-y-5">
              <FormField
                control={form.control}
                name="welcomeMessage"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Welcome Message</FormLabel>
                    <FormControl>
                      <Textarea rows={4} className="field-sizing-fixed" placeholder="Welcome to our shop!..." {...field} />
                    </FormControl>
                    <FormDescription>Sent when a customer starts the bot</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="faqContent"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>FAQ Content</FormLabel>
                    <FormControl>
                      <Textarea rows={6} className="field-sizing-fixed" placeholder="Shipping times, payment help, returns..." {...field} />
                    </FormControl>
                    <FormDescription>Shown under About in the bot</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>
                ) : (
                  <TranslatedTexts language={language} defaultLanguage={defaultLanguage} />
                )
              }
            </LanguageTabs>
          </CardContent>
        </Card>

        <LanguagesCard />

        <BotStatusCard place="bot-settings" />

        {/* Mounted once the server said where it is reached, so the editable URL starts from that. */}
        {!addresses.isLoading && <TelegramWebhookCard serverUrl={addresses.data?.telegramWebhookUrl ?? null} />}

        <Card id="payment-gateway" className="scroll-mt-20">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CreditCard className="text-muted-foreground size-5" />
              Payment Gateway (NOWPayments)
            </CardTitle>
            <CardDescription>Crypto payments for BTC, LTC and XMR through NOWPayments.io</CardDescription>
          </CardHeader>
          <CardContent className="space-y-5">
            {apiKey?.trim() && (
              <div data-testid="nowpayments-banner" className="flex items-start gap-3 rounded-lg border border-green-200 bg-green-50 p-4">
                <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-700" />
                <div>
                  <p className="font-medium text-green-900">Connected to NOWPayments.io</p>
                  <p className="text-sm text-green-700">Transaction fees: 0.5% same crypto, 1% for exchanges</p>
                </div>
              </div>
            )}
            <div className="grid items-start gap-5 md:grid-cols-2">
              <FormField
                control={form.control}
                name="nowpaymentsApiKey"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>API Key</FormLabel>
                    <SecretInput label="API Key" placeholder="Your NOWPayments API key" saved={savedSecrets.nowpaymentsApiKey} field={field} locked={!canChangeKeys} />
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="nowpaymentsIpnSecret"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>IPN Secret Key</FormLabel>
                    <SecretInput label="IPN Secret Key" placeholder="Your IPN secret key" saved={savedSecrets.nowpaymentsIpnSecret} field={field} locked={!canChangeKeys} />
                    <FormDescription>Generate it in your NOWPayments dashboard under Store Settings → IPN</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>
            <FormField
              control={form.control}
              name="underpaymentTolerancePercent"
              render={({ field }) => (
                <FormItem className="md:max-w-[calc(50%-0.625rem)]">
                  <FormLabel>Underpayment tolerance (%)</FormLabel>
                  <FormControl>
                    <Input type="number" inputMode="decimal" min="0" max="15" step="0.01" {...field} value={field.value ?? ""} />
                  </FormControl>
                  <FormDescription>
                    From 0 to 15. A payment short by more than this is treated as underpaid: the order stays pending until the
                    customer pays the rest or you accept or cancel it.
                  </FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <div className="grid gap-2">
              <Label htmlFor="payments-webhook-url">Payment Webhook URL (IPN callback)</Label>
              <div className="flex gap-2">
                <Input id="payments-webhook-url" readOnly value={paymentsAddress} className="bg-muted font-mono text-xs sm:text-sm" />
                <CopyButton text={paymentsAddress} successTitle="Webhook URL copied!" />
              </div>
              <p className="text-muted-foreground text-sm">
                NOWPayments sends payment updates to this address.{" "}
                {addresses.data?.paymentsWebhookUrl ? "" : "PUBLIC_URL is not set: it is this page's own address."}
              </p>
            </div>
          </CardContent>
        </Card>

        {/* On the left: toasts appear at the bottom right and would cover it. */}
        <div className="flex">
          <Button type="submit" size="lg" disabled={saving}>
            <Save />
            {saving ? "Saving..." : "Save Settings"}
          </Button>
        </div>
      </form>
    </Form>
  );
}

/**
 * Issue 26: the languages the bot speaks to customers, and the default (what a customer whose
 * Telegram language is not offered gets, and what a missing translation falls back to).
 */
function LanguagesCard() {
  const form = useFormContext<FormInput>();
  const defaultLanguage = useWatch({ control: form.control, name: "defaultLanguage" }) ?? DEFAULT_LANGUAGE;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Languages className="text-muted-foreground size-5" />
          Languages
        </CardTitle>
        <CardDescription>The languages your bot speaks to customers. Each customer gets their Telegram language if you offer it.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2">
        <FormField
          control={form.control}
          name="languages"
          render={({ field }) => {
            const value = field.value ?? [DEFAULT_LANGUAGE];
            return (
              <FormItem>
                <FormLabel>Languages offered</FormLabel>
                <div className="grid gap-2 sm:grid-cols-2">
                  {LANGUAGES.map((code) => (
                    <label
                      key={code}
                      lang={code}
                      className="has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-accent flex cursor-pointer items-center gap-2 rounded-md border p-3 text-sm font-medium"
                    >
                      <Checkbox
                        checked={value.includes(code)}
                        aria-label={LANGUAGE_NAMES[code]}
                        onCheckedChange={(on) => {
                          const next = on ? [...value, code] : value.filter((c) => c !== code);
                          field.onChange(LANGUAGES.filter((language) => next.includes(language)));
                          // Unticking the default makes the first language still ticked the default.
                          if (!on && code === defaultLanguage && next.length > 0) {
                            form.setValue("defaultLanguage", LANGUAGES.find((language) => next.includes(language))!, { shouldDirty: true });
                          }
                        }}
                      />
                      {LANGUAGE_NAMES[code]}
                    </label>
                  ))}
                </div>
                <FormMessage />
              </FormItem>
            );
          }}
        />
        <FormField
          control={form.control}
          name="defaultLanguage"
          render={({ field }) => {
            const offered = form.getValues("languages") ?? [DEFAULT_LANGUAGE];
            return (
              <FormItem>
                <FormLabel>Default language</FormLabel>
                <Select value={field.value ?? DEFAULT_LANGUAGE} onValueChange={(value) => field.onChange(value as Language)}>
                  <FormControl>
                    <SelectTrigger className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent>
                    {LANGUAGES.filter((code) => offered.includes(code)).map((code) => (
                      <SelectItem key={code} value={code} lang={code}>
                        {LANGUAGE_NAMES[code]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <FormDescription>
                  Customers whose language you do not offer get this one, and so does any text you have not translated. The welcome
                  message and the FAQ above are written in it.
                </FormDescription>
                <FormMessage />
              </FormItem>
            );
          }}
        />
      </CardContent>
    </Card>
  );
}

/** A language's tab of the welcome message and the FAQ: their translations, empty for the default's. */
function TranslatedTexts({ language, defaultLanguage }: { language: Language; defaultLanguage: Language }) {
  const form = useFormContext<FormInput>();
  const inLanguage = ` (${LANGUAGE_NAMES[language]})`;
  return (
    <div className="space-y-5">
      <FormField
        control={form.control}
        name={`welcomeMessageTranslations.${language}`}
        render={({ field }) => (
          <FormItem>
            <FormLabel>
              Welcome Message{inLanguage}
            </FormLabel>
            <FormControl>
              <Textarea rows={4} className="field-sizing-fixed" lang={language} {...field} value={field.value ?? ""} />
            </FormControl>
            <FormDescription>{field.value ? "Sent when a customer starts the bot" : fallbackHint(defaultLanguage)}</FormDescription>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        control={form.control}
        name={`faqContentTranslations.${language}`}
        render={({ field }) => (
          <FormItem>
            <FormLabel>
              FAQ Content{inLanguage}
            </FormLabel>
            <FormControl>
              <Textarea rows={6} className="field-sizing-fixed" lang={language} {...field} value={field.value ?? ""} />
            </FormControl>
            <FormDescription>{field.value ? "Shown under About in the bot" : fallbackHint(defaultLanguage)}</FormDescription>
            <FormMessage />
          </FormItem>
        )}
      />
    </div>
  );
}

/**
 * `serverUrl`: the address the server registers, from PUBLIC_URL; without it, this page's own
 * origin is the best guess, and the card says so.
 */
function TelegramWebhookCard({ serverUrl }: { serverUrl: string | null }) {
  const current = serverUrl ?? telegramWebhookUrl();
  const [url, setUrl] = useState(current);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Globe className="text-muted-foreground size-5" />
          Telegram Bot Webhook
        </CardTitle>
        <CardDescription>Telegram delivers your customers' messages to this address</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 lg:grid-cols-2">
        <div className="space-y-3">
          <Label htmlFor="telegram-webhook-url">Webhook URL</Label>
          <p className="text-muted-foreground text-sm" data-testid="webhook-url-source">
            {serverUrl ? "From the server's PUBLIC_URL: the address it registers with Telegram." : "PUBLIC_URL is not set: this is this page's own address."}
          </p>
          <div className="flex gap-2">
            <Input id="telegram-webhook-url" value={url} onChange={(event) => setUrl(event.target.value)} className="font-mono text-xs sm:text-sm" />
            <CopyButton text={url} successTitle="Telegram webhook URL copied!" />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="secondary" size="sm" onClick={() => setUrl(withReplitHost(url))}>
              <ExternalLink />
              Use .replit.app domain
            </Button>
            <Button type="button" variant="ghost" size="sm" onClick={() => setUrl(current)}>
              <RotateCcw />
              Reset to current
            </Button>
          </div>
        </div>
        <div className="bg-muted/50 rounded-lg border p-4">
          <p className="mb-2 text-sm font-medium">Update the webhook through @BotFather</p>
          <ol className="text-muted-foreground list-decimal space-y-1 pl-5 text-sm">
            {BOTFATHER_STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p className="text-muted-foreground mt-3 text-sm" data-testid="webhook-self-registration">
            When PUBLIC_URL is set to the shop's https address, the server registers this webhook with Telegram itself whenever the
            bot starts (or when you press Register webhook now).
          </p>
        </div>
      </CardContent>
    </Card>
  );
}
