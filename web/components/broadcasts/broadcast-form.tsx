import { FlaskConical, Send } from "lucide-react";
import { useState } from "react";
import {
  BROADCAST_CAPTION_MAX,
  BROADCAST_TEXT_MAX,
  type BroadcastAudience,
  type BroadcastAudienceKind,
  type BroadcastInput,
  type BroadcastReach,
  LANGUAGE_NAMES,
  type Language,
} from "../../../contract";
import { fallbackHint, LanguageTabs, useShopLanguages } from "@/components/language-tabs";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { ImageUpload } from "@/components/products/image-upload";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/hooks/use-toast";
import { describeError } from "@/lib/api";
import { useProducts } from "@/lib/queries";
import { useUnsavedChanges } from "@/lib/unsaved-changes";
import { countOf } from "@/lib/utils";
import { useBroadcastReach, useSendBroadcast, useSendBroadcastTest } from "./queries";

export const AUDIENCE_LABELS: Record<BroadcastAudienceKind, string> = {
  all: "All customers (everyone who started the bot)",
  product: "Customers who bought a product",
  recent: "Customers with an order in the last N days",
  "never-ordered": "Customers with no order yet",
};

/** The message as the customer will see it in Telegram: the photo (if any) above the text. */
function Preview({ text, imageUrl }: { text: string; imageUrl: string | null }) {
  return (
    <div className="bg-muted/50 rounded-lg border p-4" aria-label="Message preview" role="region">
      <div className="bg-background max-w-sm overflow-hidden rounded-xl shadow-sm">
        {imageUrl && <img src={imageUrl} alt="" className="max-h-64 w-full object-cover" />}
        <p className="px-3 py-2 text-sm break-words whitespace-pre-wrap" data-testid="broadcast-preview-text">
          {text.trim() || <span className="text-muted-foreground">Your message appears here.</span>}
        </p>
      </div>
    </div>
  );
}

/** Who is left out of the audience and why, e.g. "1 opted out (/stop), 2 blocked by you". */
function skippedText(skipped: BroadcastReach["skipped"]): string | null {
  const parts = [
    skipped.optedOut > 0 ? `${skipped.optedOut} opted out (/stop)` : null,
    skipped.unreachable > 0 ? `${skipped.unreachable} blocked the bot` : null,
    skipped.blocked > 0 ? `${skipped.blocked} blocked by you` : null,
  ].filter((part) => part !== null);
  return parts.length ? parts.join(", ") : null;
}

/**
 * "Send now" asks first (issue 22, item 2): how many customers the broadcast reaches, as the server
 * counts them, with "Send a test to me" to see it in the owner's own chat before it goes to them.
 */
function ConfirmBroadcast({
  input,
  onCancel,
  onConfirm,
}: {
  input: BroadcastInput | null;
  onCancel: () => void;
  onConfirm: (input: BroadcastInput) => void;
}) {
  const reach = useBroadcastReach(input ? (input.audience as BroadcastAudience) : null);
  const sendTest = useSendBroadcastTest();
  const count = reach.data?.reach ?? 0;
  const skipped = reach.data ? skippedText(reach.data.skipped) : null;

  const test = () => {
    if (!input) return;
    sendTest.mutate(
      { text: input.text, imageUrl: input.imageUrl },
      {
        onSuccess: ({ sentTo }) => toast({ title: "Test sent", description: `Sent to ${sentTo} only. Check it in Telegram.` }),
        onError: (error) => toast({ title: "Failed to send test", description: describeError(error), variant: "destructive" }),
      },
    );
  };

  return (
    <AlertDialog open={input !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent data-testid="broadcast-confirm">
        <AlertDialogHeader>
          <AlertDialogTitle>Send this broadcast?</AlertDialogTitle>
          <AlertDialogDescription data-testid="broadcast-reach" aria-live="polite">
            {reach.isLoading
              ? "Counting the customers it will reach..."
              : reach.error
                ? `Could not count the customers it will reach: ${describeError(reach.error)}`
                : count === 0
                  ? "Nobody in this audience can get it now."
                  : `It will reach ${countOf(count, "customer")}.`}
          </AlertDialogDescription>
          {skipped && (
            <p className="text-muted-foreground text-sm" data-testid="broadcast-reach-skipped">
              Left out of {countOf(reach.data!.audience, "customer")} in this audience: {skipped}.
            </p>
          )}
        </AlertDialogHeader>
        <AlertDialogFooter className="sm:justify-between">
          <Button type="button" variant="outline" onClick={test} disabled={sendTest.isPending}>
            <FlaskConical />
            {sendTest.isPending ? "Sending test..." : "Send a test to me"}
          </Button>
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <Button type="button" disabled={!reach.data || count === 0} onClick={() => input && onConfirm(input)}>
              <Send />
              {reach.data && count > 0 ? `Send to ${countOf(count, "customer")}` : "Send"}
            </Button>
          </div>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** A language's tab of the message (issue 26): empty, those customers get the default language's. */
function TranslatedMessage({
  language,
  defaultLanguage,
  value,
  onChange,
  limit,
  caption,
}: {
  language: Language;
  defaultLanguage: Language;
  value: string;
  onChange: (value: string) => void;
  limit: number;
  caption: boolean;
}) {
  const id = `broadcast-text-${language}`;
  const tooLong = value.trim().length > limit;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Message ({LANGUAGE_NAMES[language]})</Label>
      <Textarea id={id} rows={6} lang={language} value={value} onChange={(event) => onChange(event.target.value)} aria-invalid={tooLong || undefined} />
      <p className={tooLong ? "text-destructive text-xs" : "text-muted-foreground text-xs"}>
        {value.trim() === "" ? fallbackHint(defaultLanguage) : `${value.trim().length} / ${limit} characters${caption ? " (a photo caption)" : ""}`}
      </p>
    </div>
  );
}

/** Compose a message, choose who gets it, send it now; `onSent` gets the new broadcast's id. */
export function BroadcastForm({ onSent }: { onSent: (id: string) => void }) {
  const [text, setText] = useState("");
  // Issue 26: the text in the other languages the shop offers; each customer gets theirs, else `text`.
  const [translations, setTranslations] = useState<Partial<Record<Language, string>>>({});
  const { languages, defaultLanguage } = useShopLanguages();
  const otherLanguages = languages.slice(1);
  const [imageUrl, setImageUrl] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [kind, setKind] = useState<BroadcastAudienceKind>("all");
  const [productId, setProductId] = useState("");
  const [days, setDays] = useState("30");
  const products = useProducts();
  const send = useSendBroadcast();
  const [confirming, setConfirming] = useState<BroadcastInput | null>(null);
  // A message written and not sent yet is work: leaving asks first (issue 22, item 3).
  useUnsavedChanges(text.trim() !== "");

  const limit = imageUrl ? BROADCAST_CAPTION_MAX : BROADCAST_TEXT_MAX;
  const tooLong = [text, ...otherLanguages.map((language) => translations[language] ?? "")].some((t) => t.trim().length > limit);
  const daysNumber = Number(days);
  const audienceReady =
    kind === "product" ? productId !== "" : kind === "recent" ? Number.isInteger(daysNumber) && daysNumber >= 1 : true;
  const canSend = text.trim() !== "" && !tooLong && audienceReady && !uploading && !send.isPending;

  const askToSend = () =>
    setConfirming({
      text,
      ...(otherLanguages.length > 0
        ? { textTranslations: Object.fromEntries(otherLanguages.map((language) => [language, translations[language] ?? ""])) }
        : {}),
      imageUrl,
      audience: kind === "product" ? { kind, productId } : kind === "recent" ? { kind, days: daysNumber } : { kind },
    });

  const submit = async (input: BroadcastInput) => {
    setConfirming(null);
    try {
      const { id } = await send.mutateAsync(input);
      toast({ title: "Broadcast queued", description: "It is being sent now." });
      setText("");
      setTranslations({});
      setImageUrl(null);
      onSent(id);
    } catch (error) {
      toast({ title: "Failed to send broadcast", description: describeError(error), variant: "destructive" });
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>New broadcast</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-6 lg:grid-cols-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (canSend) askToSend();
          }}
        >
          <div className="space-y-5">
            <LanguageTabs languages={languages} label="Language of the message">
              {(language, isDefault) =>
                isDefault ? (
            <div className="space-y-2">
              <Label htmlFor="broadcast-text">Message</Label>
              <Textarea
                id="broadcast-text"
                rows={6}
                value={text}
                onChange={(event) => setText(event.target.value)}
                placeholder="New stock just arrived..."
                aria-invalid={tooLong || undefined}
              />
              <p className={tooLong ? "text-destructive text-xs" : "text-muted-foreground text-xs"}>
                {text.trim().length} / {limit} characters{imageUrl ? " (a photo caption)" : ""}
              </p>
            </div>
                ) : (
                  <TranslatedMessage
                    language={language}
                    defaultLanguage={defaultLanguage}
                    value={translations[language] ?? ""}
                    onChange={(value) => setTranslations((current) => ({ ...current, [language]: value }))}
                    limit={limit}
                    caption={imageUrl !== null}
                  />
                )
              }
            </LanguageTabs>
            <div className="space-y-2">
              <Label>Image (optional)</Label>
              <ImageUpload subject="Broadcast" value={imageUrl} onChange={setImageUrl} onUploadingChange={setUploading} />
            </div>
            <fieldset className="space-y-2">
              <legend className="mb-2 text-sm font-medium">Audience</legend>
              {(Object.keys(AUDIENCE_LABELS) as BroadcastAudienceKind[]).map((option) => (
                <label key={option} className="flex items-center gap-2 text-sm">
                  <input type="radio" name="audience" value={option} checked={kind === option} onChange={() => setKind(option)} />
                  {AUDIENCE_LABELS[option]}
                </label>
              ))}
              {kind === "product" && (
                <div className="space-y-1 pl-6">
                  <Label htmlFor="broadcast-product">Product</Label>
                  <select
                    id="broadcast-product"
                    className="border-input bg-background h-9 w-full rounded-md border px-3 text-sm"
                    value={productId}
                    onChange={(event) => setProductId(event.target.value)}
                  >
                    <option value="">Choose a product</option>
                    {(products.data ?? []).map((product) => (
                      <option key={product.id} value={product.id}>
                        {product.name}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              {kind === "recent" && (
                <div className="space-y-1 pl-6">
                  <Label htmlFor="broadcast-days">Days</Label>
                  <Input id="broadcast-days" type="number" min={1} max={3650} className="w-32" value={days} onChange={(event) => setDays(event.target.value)} />
                </div>
              )}
            </fieldset>
            <Button type="submit" disabled={!canSend}>
              <Send />
              {send.isPending ? "Sending..." : "Send now"}
            </Button>
          </div>
          <div className="space-y-2">
            <p className="text-sm font-medium">Preview</p>
            <Preview text={text} imageUrl={imageUrl} />
            <p className="text-muted-foreground text-xs">
              Customers who sent /stop, blocked the bot, or were blocked by you are skipped. Messages go out at up to 25 a second.
            </p>
          </div>
        </form>
        <ConfirmBroadcast input={confirming} onCancel={() => setConfirming(null)} onConfirm={(input) => void submit(input)} />
      </CardContent>
    </Card>
  );
}
