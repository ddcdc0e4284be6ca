import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCircle2, CircleDashed, KeyRound, Save, Server, Wallet, Webhook } from "lucide-react";
import { useId, useState } from "react";
import { useForm, type FieldNamesMarkedBoolean } from "react-hook-form";
import type { z } from "zod";
import {
  CURRENCIES,
  maskedHint,
  PaymentGatewaysInputSchema,
  type Currency,
  type GatewayName,
  type PaymentGateways,
  type PaymentGatewaysInput,
} from "../../../contract";
import { SecretInput } from "@/components/bot-settings/secret-input";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { toast } from "@/hooks/use-toast";
import { ApiError, describeError } from "@/lib/api";
import { useUnsavedChanges } from "@/lib/unsaved-changes";
import { usePaymentGateways, useRegisterBtcpayWebhook, useSavePaymentGateways } from "@/lib/queries";

// Payment gateways on Bot Settings (issue 24; docs/decisions/0035-btcpay-beside-nowpayments.md):
// the owner's BTCPay Server beside NOWPayments, and which of the two takes each coin. Its own form
// and Save (PUT /api/payment-gateways), like the Privacy card.
//
// NOWPayments' API key and IPN secret are edited in one place only: the "Payment Gateway
// (NOWPayments)" card of the bot's settings form, saved with Save Settings (they are the same stored
// secrets). Two inputs for one secret on one page could disagree, so this card only says whether
// NOWPayments has its keys and links there; it never sends NOWPayments' part.

type FormInput = z.input<typeof PaymentGatewaysInputSchema>;
type FormOutput = z.output<typeof PaymentGatewaysInputSchema>;

const BTCPAY_FIELDS = ["serverUrl", "storeId", "apiKey"] as const;
type BtcpayField = (typeof BTCPAY_FIELDS)[number];

const CURRENCY_NAMES: Record<Currency, string> = { BTC: "Bitcoin", LTC: "Litecoin", XMR: "Monero" };
const GATEWAY_LABELS: Record<GatewayName, string> = { nowpayments: "NOWPayments", btcpay: "BTCPay Server" };

/** The exact words of each webhook state (issue 24). */
const WEBHOOK_STATE_TEXT: Record<PaymentGateways["btcpay"]["webhook"]["state"], string> = {
  registered: "Registered",
  "not-registered": "Not registered",
  "no-public-url": "No public address: payments are checked by polling",
};

/** The form's values: the answer's masks stand for stored secrets (sent back unchanged they keep them). */
function toFormValues(saved: PaymentGateways): FormInput {
  return {
    btcpay: { serverUrl: saved.btcpay.serverUrl ?? "", storeId: saved.btcpay.storeId ?? "", apiKey: saved.btcpay.apiKey ?? "" },
    coins: { ...saved.coins },
  };
}

/** Only what the owner changed: a field left alone is not sent, so the server keeps it as stored. */
export function changedInput(values: FormOutput, dirty: Partial<FieldNamesMarkedBoolean<FormInput>>): PaymentGatewaysInput {
  const input: PaymentGatewaysInput = {};
  const btcpay: NonNullable<PaymentGatewaysInput["btcpay"]> = {};
  for (const name of BTCPAY_FIELDS) if (dirty.btcpay?.[name]) btcpay[name] = values.btcpay?.[name] ?? null;
  if (Object.keys(btcpay).length > 0) input.btcpay = btcpay;
  const coins: NonNullable<PaymentGatewaysInput["coins"]> = {};
  for (const code of CURRENCIES) if (dirty.coins?.[code]) coins[code] = values.coins?.[code];
  if (Object.keys(coins).length > 0) input.coins = coins;
  return input;
}

/**
 * Where a refusal's sentence belongs: under the field it names, else above Save. The server words a
 * field's problem with its label first ("Server URL must be…", contract/owner-words.ts) and BTCPay's
 * own refusals by what was refused ("BTCPay Server refused the API key…").
 */
export function placeOfError(message: string): `btcpay.${BtcpayField}` | "coins" | null {
  if (/NOWPayments/i.test(message)) return null;
  // A coin's choice ("XMR cannot be taken by this store…", "BTC must be nowpayments or btcpay").
  if (/^(BTC|LTC|XMR)\b/.test(message)) return "coins";
  if (/\bAPI key\b/i.test(message)) return "btcpay.apiKey";
  if (/^Server URL\b|could not be reached|not a BTCPay Server|address of your BTCPay Server/i.test(message)) return "btcpay.serverUrl";
  if (/^Store ID\b|\bstore\b/i.test(message)) return "btcpay.storeId";
  return null;
}

export function PaymentGatewaysCard() {
  const gateways = usePaymentGateways();
  return (
    <Card id="payment-gateways" className="scroll-mt-20" data-testid="payment-gateways-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Wallet className="text-muted-foreground size-5" />
          Payment gateways
        </CardTitle>
        <CardDescription>
          Take each coin through NOWPayments or your own BTCPay Server (self-custody: coins go straight to your wallet)
        </CardDescription>
      </CardHeader>
      <CardContent>
        {gateways.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The payment gateways could not be loaded: {describeError(gateways.error)}
          </p>
        ) : gateways.data ? (
          // Mounted once with what was stored: a reload of the gateways (after Save Settings, a webhook
          // registered) updates what is shown, never what the owner is typing.
          <PaymentGatewaysForm saved={gateways.data} />
        ) : (
          <p className="text-muted-foreground text-sm">Loading payment gateways...</p>
        )}
      </CardContent>
    </Card>
  );
}

function PaymentGatewaysForm({ saved }: { saved: PaymentGateways }) {
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(PaymentGatewaysInputSchema),
    defaultValues: toFormValues(saved),
  });
  useUnsavedChanges(form.formState.isDirty);
  const save = useSavePaymentGateways();
  // What the server last answered for the BTCPay API key: its mask when one is stored.
  const [savedApiKey, setSavedApiKey] = useState(saved.btcpay.apiKey);
  // A refusal that names no field: shown above Save.
  const [formError, setFormError] = useState<string | null>(null);

  const onSubmit = (values: FormOutput) => {
    setFormError(null);
    const input = changedInput(values, form.formState.dirtyFields);
    if (!input.btcpay && !input.coins) {
      toast({ title: "No changes to save" });
      return;
    }
    save.mutate(input, {
      onSuccess: (answer) => {
        setSavedApiKey(answer.btcpay.apiKey);
        // What was saved is the form's new starting point; a typed key leaves it for its mask.
        form.reset(toFormValues(answer));
        toast({ title: "Payment gateways saved" });
      },
      onError: (error) => {
        // Nothing was saved: the form keeps what was typed, and the sentence goes where it is fixed.
        const message = error instanceof ApiError ? error.serverMessage : undefined;
        const place = message ? placeOfError(message) : null;
        if (message && place) form.setError(place, { type: "server", message }, { shouldFocus: true });
        else if (message) setFormError(message);
        toast({ title: "Failed to save payment gateways", description: describeError(error), variant: "destructive" });
      },
    });
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} className="space-y-6" aria-label="Payment gateways" noValidate>
        <CoinChoices form={form} />

        <div className="grid gap-6 lg:grid-cols-2">
          <section aria-labelledby="btcpay-heading" className="space-y-4 rounded-lg border p-4">
            <h3 id="btcpay-heading" className="flex items-center gap-2 font-medium">
              <Server className="text-muted-foreground size-4" aria-hidden="true" />
              BTCPay Server
            </h3>
            <FormField
              control={form.control}
              name="btcpay.serverUrl"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>BTCPay Server URL</FormLabel>
                  <FormControl>
                    <Input type="url" inputMode="url" autoComplete="url" placeholder="https://btcpay.example.com" {...field} value={field.value ?? ""} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="btcpay.storeId"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Store ID</FormLabel>
                  <FormControl>
                    <Input autoComplete="off" spellCheck={false} placeholder="Under Store settings → General" {...field} value={field.value ?? ""} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="btcpay.apiKey"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>BTCPay API key</FormLabel>
                  <SecretInput label="BTCPay API key" placeholder="Your BTCPay Server API key" saved={savedApiKey} field={field} />
                  <FormDescription>
                    Create it under Account → API Keys with the permissions to view invoices, create invoices and modify the store's
                    settings (for its webhook). Saving checks it with your server.
                  </FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <BtcpayWebhook btcpay={saved.btcpay} />
          </section>

          <section aria-labelledby="nowpayments-heading" className="space-y-3 self-start rounded-lg border p-4">
            <h3 id="nowpayments-heading" className="flex items-center gap-2 font-medium">
              <KeyRound className="text-muted-foreground size-4" aria-hidden="true" />
              NOWPayments
            </h3>
            <NowPaymentsState nowpayments={saved.nowpayments} />
          </section>
        </div>

        {formError && (
          <p role="alert" data-testid="payment-gateways-error" className="border-destructive/30 bg-destructive/5 text-destructive rounded-md border p-3 text-sm">
            {formError}
          </p>
        )}
        <Button type="submit" variant="outline" disabled={save.isPending}>
          <Save />
          {save.isPending ? "Saving..." : "Save Payment Gateways"}
        </Button>
      </form>
    </Form>
  );
}

/** For BTC, LTC and XMR: NOWPayments or BTCPay Server, as radio buttons (arrow keys move between them). */
function CoinChoices({ form }: { form: ReturnType<typeof useForm<FormInput, unknown, FormOutput>> }) {
  const error = form.formState.errors.coins;
  const errorId = useId();
  const message = error?.message ?? CURRENCIES.map((code) => error?.[code]?.message).find(Boolean);
  return (
    <fieldset className="space-y-3" aria-describedby={message ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium">Gateway for each coin</legend>
      <div className="grid gap-3 md:grid-cols-3">
        {CURRENCIES.map((code) => (
          <fieldset key={code} className="rounded-md border p-3">
            <legend className="px-1 text-sm font-medium">
              {code} <span className="text-muted-foreground font-normal">{CURRENCY_NAMES[code]}</span>
            </legend>
            <div className="flex flex-col gap-1">
              {(Object.keys(GATEWAY_LABELS) as GatewayName[]).map((gateway) => (
                <label key={gateway} className="hover:bg-accent flex min-h-9 cursor-pointer items-center gap-2 rounded px-2 text-sm has-[:checked]:font-medium">
                  <input type="radio" value={gateway} className="accent-primary size-4" {...form.register(`coins.${code}`)} />
                  {GATEWAY_LABELS[gateway]}
                </label>
              ))}
            </div>
            {code === "XMR" && <p className="text-muted-foreground mt-1 px-1 text-xs">Through BTCPay Server only with its Monero plugin installed</p>}
          </fieldset>
        ))}
      </div>
      <p className="text-muted-foreground text-sm">
        A coin must also be ticked under Accepted Cryptocurrencies, and its gateway must have its keys, before customers can pay with it.
      </p>
      {message && (
        <p id={errorId} data-slot="form-message" className="text-destructive text-sm">
          {message}
        </p>
      )}
    </fieldset>
  );
}

/** The webhook secret (masked, read-only: the shop makes it), the webhook's state, and Register webhook. */
function BtcpayWebhook({ btcpay }: { btcpay: PaymentGateways["btcpay"] }) {
  const register = useRegisterBtcpayWebhook();
  const [refusal, setRefusal] = useState<string | null>(null);
  const hint = btcpay.webhookSecret ? maskedHint(btcpay.webhookSecret) : "";
  const { state, url } = btcpay.webhook;
  return (
    <div className="space-y-3 border-t pt-4">
      <dl className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1">
          <dt className="text-sm font-medium">Webhook secret</dt>
          <dd data-testid="btcpay-webhook-secret" className="bg-muted/50 flex min-h-9 items-center gap-2 rounded-md border px-3 text-sm">
            <KeyRound className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
            {btcpay.webhookSecret ? (hint ? `set (…${hint})` : "set") : "Made when the webhook is registered"}
          </dd>
        </div>
        <div className="space-y-1">
          <dt className="text-sm font-medium">Webhook</dt>
          <dd data-testid="btcpay-webhook-state" className="flex min-h-9 items-center gap-2 text-sm">
            {state === "registered" ? (
              <CheckCircle2 className="size-4 shrink-0 text-green-700 dark:text-green-400" aria-hidden="true" />
            ) : (
              <CircleDashed className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
            )}
            {state === "registered" ? <Badge variant="secondary">{WEBHOOK_STATE_TEXT[state]}</Badge> : WEBHOOK_STATE_TEXT[state]}
          </dd>
        </div>
      </dl>
      {state === "registered" && url && (
        <p className="text-muted-foreground text-sm break-all" data-testid="btcpay-webhook-url">
          BTCPay Server posts to <span className="font-mono text-xs">{url}</span>
        </p>
      )}
      <div className="space-y-2">
        <Button
          type="button"
          variant="secondary"
          size="sm"
          disabled={register.isPending}
          onClick={() => {
            setRefusal(null);
            register.mutate(undefined, {
              onSuccess: () => toast({ title: "Webhook registered" }),
              onError: (error) => {
                setRefusal(describeError(error));
                toast({ title: "Failed to register the webhook", description: describeError(error), variant: "destructive" });
              },
            });
          }}
        >
          <Webhook />
          {register.isPending ? "Registering..." : "Register webhook"}
        </Button>
        <p className="text-muted-foreground text-sm">Registers the shop's address on the saved store, so payments arrive at once.</p>
        {refusal && (
          <p role="alert" data-testid="btcpay-webhook-error" className="text-destructive text-sm">
            {refusal}
          </p>
        )}
      </div>
    </div>
  );
}

/** Whether NOWPayments has its keys; they are edited in the Payment Gateway (NOWPayments) card above. */
function NowPaymentsState({ nowpayments }: { nowpayments: PaymentGateways["nowpayments"] }) {
  const ready = Boolean(nowpayments.apiKey && nowpayments.ipnSecret);
  return (
    <>
      <p data-testid="nowpayments-state" className="flex items-center gap-2 text-sm">
        {ready ? (
          <CheckCircle2 className="size-4 shrink-0 text-green-700 dark:text-green-400" aria-hidden="true" />
        ) : (
          <CircleDashed className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
        )}
        {ready ? "API key and IPN secret are set" : "Its API key and IPN secret are not both set"}
      </p>
      <p className="text-muted-foreground text-sm">
        Custodial: NOWPayments holds the coins until it pays out.{" "}
        <a href="#payment-gateway" className="text-foreground font-medium underline underline-offset-2">
          Edit the NOWPayments keys
        </a>{" "}
        in the Payment Gateway (NOWPayments) card, saved with Save Settings.
      </p>
    </>
  );
}
