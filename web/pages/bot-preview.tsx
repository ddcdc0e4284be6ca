import { Bot, CheckCircle2, FlaskConical, Info, ListChecks, Play, Settings } from "lucide-react";
import { useState } from "react";
import { Link } from "wouter";
import type { BotSettings } from "../../contract";
import { BotSimulator } from "@/components/bot-simulator";
import { BotStatusCard } from "@/components/bot-status-card";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { LoadingRows } from "@/components/loading-rows";
import { describeError } from "@/lib/api";
import { useBotSettings, useTestTelegramWebhook } from "@/lib/queries";
import { telegramWebhookUrl } from "@/lib/webhooks";

/** docs/product.md §2: what the preview shows when no welcome message is set. */
const DEFAULT_WELCOME =
  "Welcome to our shop! Browse our products, place orders and pay securely with cryptocurrency.";

const MAIN_MENU = ["Browse Products", "My Cart", "My Orders", "Contact Support", "About"];

const FEATURES = [
  { name: "Browse Products", text: "Categories, product photos, bulk prices and stock" },
  { name: "My Cart", text: "Change quantities, choose postage and check out" },
  { name: "My Orders", text: "Order status and payment details" },
  { name: "Contact Support", text: "Messages arrive in your Messages screen" },
  { name: "About", text: "Your FAQ content" },
];

const SETUP_STEPS = [
  "Save your bot token and settings on the Bot Settings screen",
  "Point the bot's webhook at the URL above (or let the server poll Telegram)",
  "Send /start to your bot in Telegram",
  "Try the update below to see how the bot answers",
];

/** A /start message as Telegram would deliver it. */
const SAMPLE_UPDATE = JSON.stringify(
  {
    update_id: 100000001,
    message: {
      message_id: 1,
      date: 1735689600,
      chat: { id: 123456789, type: "private", first_name: "Test", username: "testuser" },
      from: { id: 123456789, is_bot: false, first_name: "Test", username: "testuser", language_code: "en" },
      text: "/start",
      entities: [{ type: "bot_command", offset: 0, length: 6 }],
    },
  },
  null,
  2,
);

export default function BotPreviewPage() {
  const settings = useBotSettings();
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">Bot Preview</h2>
        <p className="text-muted-foreground">See how your bot greets customers and try it with a test update</p>
      </div>
      {settings.isLoading ? (
        <LoadingRows label="Loading bot preview..." />
      ) : settings.isError ? (
        <p role="alert" className="border-destructive/30 bg-destructive/5 text-destructive rounded-md border p-3 text-sm">
          The bot settings could not be loaded: {settings.error.message}
        </p>
      ) : settings.data ? (
        <Preview settings={settings.data} />
      ) : (
        <Card className="mx-auto max-w-lg">
          <CardContent className="flex flex-col items-center gap-4 py-6 text-center">
            <div className="bg-muted flex size-12 items-center justify-center rounded-full">
              <Bot className="text-muted-foreground size-6" />
            </div>
            <p className="text-muted-foreground">No bot settings found. Please configure your bot settings first.</p>
            <Button asChild>
              <Link href="/bot-settings">
                <Settings />
                Go to Bot Settings
              </Link>
            </Button>
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function Preview({ settings }: { settings: BotSettings }) {
  const welcome = settings.welcomeMessage?.trim() || DEFAULT_WELCOME;
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
      <div className="space-y-6">
        <Card className="gap-0 overflow-hidden py-0" data-testid="chat-preview">
          <div className="flex items-center gap-3 bg-sky-700 px-4 py-3 text-white">
            <div className="flex size-9 items-center justify-center rounded-full bg-white/20">
              <Bot className="size-5" />
            </div>
            <div className="min-w-0">
              <p className="truncate font-semibold">{settings.botName}</p>
              <p className="text-xs text-sky-50">bot</p>
            </div>
          </div>
          <div className="space-y-3 bg-sky-50 p-4">
            <div className="ml-auto w-fit rounded-2xl rounded-br-sm bg-emerald-100 px-3 text-neutral-900 py-2 font-mono text-sm">/start</div>
            <div className="max-w-[90%] rounded-2xl rounded-bl-sm bg-white px-3 text-neutral-900 py-2 text-sm whitespace-pre-line shadow-xs">{welcome}</div>
            <div className="grid grid-cols-2 gap-1.5">
              {MAIN_MENU.map((item, index) => (
                <div
                  key={item}
                  className={`rounded-md bg-white/90 px-2 py-1.5 text-center text-xs font-medium text-sky-700 shadow-xs ${index === MAIN_MENU.length - 1 ? "col-span-2" : ""}`}
                >
                  {item}
                </div>
              ))}
            </div>
          </div>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ListChecks className="text-muted-foreground size-5" />
              Bot Features
            </CardTitle>
            <CardDescription>The main menu customers see</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="space-y-3" data-testid="bot-features">
              {FEATURES.map((feature) => (
                <li key={feature.name} className="flex gap-3">
                  <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-green-700" />
                  <div>
                    <p className="text-sm font-medium">{feature.name}</p>
                    <p className="text-muted-foreground text-xs">{feature.text}</p>
                  </div>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>

      <div className="space-y-6">
        <BotStatusCard place="bot-preview" />

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Info className="text-muted-foreground size-5" />
              Bot Information
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 text-sm sm:grid-cols-[10rem_1fr]">
              <dt className="text-muted-foreground">Bot Name</dt>
              <dd className="font-medium" data-testid="bot-name">
                {settings.botName}
              </dd>
              <dt className="text-muted-foreground">Status</dt>
              <dd>
                {/* The 'Active' of docs/product.md §2: the bot is configured. Not green: whether it really runs is Bot Status's to say. */}
                <Badge variant="outline" title="The bot is configured; Bot Status shows whether it runs">
                  Active
                </Badge>
              </dd>
              <dt className="text-muted-foreground">Accepted Currencies</dt>
              <dd className="flex flex-wrap gap-1.5">
                {settings.acceptedCurrencies.map((code) => (
                  <Badge key={code} variant="secondary">
                    {code}
                  </Badge>
                ))}
              </dd>
              <dt className="text-muted-foreground">Welcome Message</dt>
              <dd className="whitespace-pre-line" data-testid="welcome-message">
                {welcome}
              </dd>
              <dt className="text-muted-foreground">Webhook URL</dt>
              <dd>
                <code className="bg-muted rounded px-2 py-1 text-xs break-all" data-testid="webhook-url">
                  {telegramWebhookUrl()}
                </code>
              </dd>
            </dl>
            <div className="bg-muted/50 mt-6 rounded-lg border p-4">
              <p className="mb-2 text-sm font-medium">Setup instructions</p>
              <ol className="text-muted-foreground list-decimal space-y-1 pl-5 text-sm">
                {SETUP_STEPS.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ol>
            </div>
          </CardContent>
        </Card>

      </div>

      {/* The chat simulator beside the JSON tester (issue 14, item 1): the same real bot, two ways to try it. */}
      <div className="grid gap-6 lg:col-span-2 lg:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
        <BotSimulator botName={settings.botName} />
        <div>
          <WebhookTester />
        </div>
      </div>
    </div>
  );
}

/** Runs an update through the real bot; the server answers what the bot would have sent. */
function WebhookTester() {
  const [update, setUpdate] = useState(SAMPLE_UPDATE);
  const test = useTestTelegramWebhook();

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FlaskConical className="text-muted-foreground size-5" />
          Webhook Tester
        </CardTitle>
        <CardDescription>Send a Telegram update (JSON) to your bot's webhook and see its answer</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-2">
          <Label htmlFor="webhook-update">Update JSON</Label>
          <Textarea
            id="webhook-update"
            rows={12}
            spellCheck={false}
            className="field-sizing-fixed font-mono text-xs"
            value={update}
            onChange={(event) => setUpdate(event.target.value)}
          />
        </div>
        <Button type="button" onClick={() => test.mutate(update)} disabled={test.isPending}>
          <Play />
          {test.isPending ? "Testing..." : "Test Webhook"}
        </Button>
        {test.isError && (
          <pre role="alert" data-testid="webhook-error" className="border-destructive/30 bg-destructive/5 text-destructive overflow-x-auto rounded-md border p-3 text-xs whitespace-pre-wrap">
            {`Error: ${describeError(test.error)}`}
          </pre>
        )}
        {test.isSuccess && (
          <div className="grid gap-2">
            <Label>Result</Label>
            <pre data-testid="webhook-result" className="bg-muted max-h-96 overflow-auto rounded-md border p-3 font-mono text-xs">
              {JSON.stringify(test.data, null, 2)}
            </pre>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
