import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Bot, CreditCard, MessagesSquare, RotateCcw, SendHorizontal, X } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { SimulatorEvent, SimulatorMessage, SimulatorState } from "../../contract";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { apiRequest, describeError } from "@/lib/api";
import { formatTime } from "@/lib/dates";
import { queryKeys } from "@/lib/queries";

// Bot Preview's chat simulator (issue 14, item 1; docs/decisions/0023-chat-simulator.md): a phone-sized
// chat that looks like Telegram, where the admin plays the test customer against the real bot. Every
// answer comes from the server, which ran the bot and kept what it would have sent.

const SIMULATOR_KEY = ["/api/bot/simulator"] as const;
/** How often the chat looks for messages the shop sent outside a turn (a payment confirmed, a dispatch). */
const REFRESH_MS = 5_000;
/** How long a passing notice (a button's answer) stays on screen. */
const NOTICE_MS = 3_500;

type Notice = { id: number; text: string; alert: boolean };

const timeOf = formatTime;

export function BotSimulator({ botName }: { botName: string }) {
  const client = useQueryClient();
  const state = useQuery<SimulatorState>({ queryKey: SIMULATOR_KEY, refetchInterval: REFRESH_MS });
  const [text, setText] = useState("");
  const [notices, setNotices] = useState<Notice[]>([]);
  const chatRef = useRef<HTMLDivElement>(null);
  const noticeId = useRef(0);

  const act = useMutation({
    mutationFn: (request: { url: string; body?: unknown }) => apiRequest<SimulatorState>("POST", request.url, request.body),
    onSuccess: (next) => {
      client.setQueryData(SIMULATOR_KEY, next);
      showNotices(next.events);
      // A checkout, a simulated payment or a reset changes orders and the numbers elsewhere in the app.
      void client.invalidateQueries({ queryKey: queryKeys.orders });
      void client.invalidateQueries({ queryKey: queryKeys.dashboardStats });
    },
  });

  function showNotices(events: SimulatorEvent[]) {
    const fresh = events
      .filter((event) => event.type === "notice" && event.text)
      .map((event) => ({ id: ++noticeId.current, text: event.text!, alert: event.alert }));
    if (fresh.length === 0) return;
    setNotices((current) => [...current, ...fresh]);
    // A passing notice fades on its own; an alert stays until closed, as in Telegram.
    for (const notice of fresh) {
      if (!notice.alert) setTimeout(() => setNotices((current) => current.filter((other) => other.id !== notice.id)), NOTICE_MS);
    }
  }

  const messages = state.data?.messages ?? [];
  const lastMessageKey = messages.length > 0 ? `${messages.at(-1)!.messageId}:${messages.at(-1)!.text.length}` : "";
  useEffect(() => {
    const chat = chatRef.current;
    if (chat) chat.scrollTop = chat.scrollHeight;
  }, [lastMessageKey]);
  // The newest message stays in sight when the phone frame changes size (a rotated phone, a narrower window).
  useEffect(() => {
    const chat = chatRef.current;
    if (!chat || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => (chat.scrollTop = chat.scrollHeight));
    observer.observe(chat);
    return () => observer.disconnect();
  }, []);

  function send(event: FormEvent) {
    event.preventDefault();
    const typed = text.trim();
    if (!typed || act.isPending) return;
    setText("");
    act.mutate({ url: "/api/bot/simulator/messages", body: { text: typed } });
  }

  const press = (message: SimulatorMessage, data: string) =>
    act.mutate({ url: "/api/bot/simulator/presses", body: { messageId: message.messageId, data } });
  const pending = state.data?.pendingPayment ?? null;

  return (
    <Card data-testid="bot-simulator">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MessagesSquare className="text-muted-foreground size-5" />
          Chat Simulator
        </CardTitle>
        <CardDescription>
          Try your shop as a test customer. The real bot answers here; nothing is sent to Telegram, and payments are only simulated.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="mx-auto flex h-[36rem] w-full max-w-sm flex-col overflow-hidden rounded-[1.75rem] border-4 border-neutral-800 bg-neutral-800 shadow-lg">
          <div className="flex items-center gap-3 bg-sky-700 px-4 py-2.5 text-white">
            <div className="flex size-9 shrink-0 items-center justify-center rounded-full bg-white/20">
              <Bot className="size-5" aria-hidden="true" />
            </div>
            <div className="min-w-0">
              <p className="truncate font-semibold">{botName}</p>
              <p className="text-xs text-sky-50">bot · you are the test customer</p>
            </div>
          </div>
          <div className="relative min-h-0 flex-1">
            <div
              ref={chatRef}
              role="log"
              aria-label="Simulated chat"
              aria-live="polite"
              tabIndex={0}
              className="h-full space-y-2 overflow-y-auto bg-[#dbe6d4] px-3 py-3"
              data-testid="simulator-chat"
            >
              {state.isLoading && <p className="py-8 text-center text-sm text-neutral-700">Loading the chat...</p>}
              {state.isSuccess && messages.length === 0 && (
                <p className="mx-auto mt-8 w-fit max-w-[85%] rounded-xl bg-black/60 px-3 py-2 text-center text-xs text-white">
                  Send /start to begin, as a customer would.
                </p>
              )}
              {messages.map((message) => (
                <ChatMessage key={message.messageId} message={message} disabled={act.isPending} onPress={(data) => press(message, data)} />
              ))}
              {act.isPending && (
                <p className="w-fit rounded-xl bg-white/80 px-3 py-1.5 text-xs text-neutral-700" data-testid="simulator-typing">
                  {botName} is typing...
                </p>
              )}
            </div>
            {notices.length > 0 && (
              <div className="pointer-events-none absolute inset-x-3 top-3 space-y-2" role="status" data-testid="simulator-notices">
                {notices.map((notice) => (
                  <div
                    key={notice.id}
                    className="pointer-events-auto flex items-start gap-2 rounded-lg bg-neutral-900/90 px-3 py-2 text-sm text-white shadow-md"
                  >
                    <span className="min-w-0 flex-1 whitespace-pre-line">{notice.text}</span>
                    {notice.alert && (
                      <button
                        type="button"
                        className="rounded p-0.5 hover:bg-white/20 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none"
                        aria-label="Close notice"
                        onClick={() => setNotices((current) => current.filter((other) => other.id !== notice.id))}
                      >
                        <X className="size-4" aria-hidden="true" />
                      </button>
                    )}
                  </div>
                ))}
              </div>
            )}
          </div>
          <form onSubmit={send} className="flex items-center gap-2 bg-white px-2 py-2">
            <label htmlFor="simulator-input" className="sr-only">
              Message
            </label>
            <input
              id="simulator-input"
              value={text}
              onChange={(event) => setText(event.target.value)}
              maxLength={4096}
              autoComplete="off"
              placeholder="Message"
              className="min-w-0 flex-1 rounded-full border border-neutral-300 bg-white px-3 py-2 text-sm text-neutral-900 placeholder:text-neutral-600 focus-visible:border-sky-700 focus-visible:outline-none"
            />
            <button
              type="submit"
              aria-label="Send"
              disabled={act.isPending || text.trim() === ""}
              className="flex size-9 shrink-0 items-center justify-center rounded-full bg-sky-700 text-white hover:bg-sky-800 focus-visible:ring-2 focus-visible:ring-sky-900 focus-visible:outline-none disabled:opacity-50"
            >
              <SendHorizontal className="size-4" aria-hidden="true" />
            </button>
          </form>
        </div>

        {(act.isError || state.isError) && (
          <p role="alert" className="border-destructive/30 bg-destructive/5 text-destructive rounded-md border p-2 text-sm" data-testid="simulator-error">
            {describeError(act.error ?? state.error)}
          </p>
        )}

        {pending && (
          <div className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950" data-testid="simulator-pending-payment">
            <Badge variant="outline" className="border-amber-400 bg-white">
              Test order
            </Badge>
            <span className="min-w-0 flex-1">
              Waiting for payment: £{pending.totalAmount}
              {pending.payAmount && pending.payCurrency ? ` (${pending.payAmount} ${pending.payCurrency.toUpperCase()})` : ""}
            </span>
            <Button
              type="button"
              size="sm"
              disabled={act.isPending}
              onClick={() => act.mutate({ url: "/api/bot/simulator/payments", body: { orderId: pending.orderId } })}
            >
              <CreditCard />
              Simulate payment
            </Button>
          </div>
        )}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-muted-foreground text-xs">Test orders are flagged in Orders, left out of revenue and can be deleted.</p>
          <Button type="button" variant="outline" size="sm" disabled={act.isPending} onClick={() => act.mutate({ url: "/api/bot/simulator/reset" })}>
            <RotateCcw />
            Reset test customer
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function ChatMessage({ message, disabled, onPress }: { message: SimulatorMessage; disabled: boolean; onPress: (data: string) => void }) {
  if (message.fromCustomer) {
    return (
      <div className="flex justify-end" data-testid="simulator-message" data-from="customer">
        <div className="max-w-[85%] rounded-2xl rounded-br-sm bg-[#effdde] px-3 py-1.5 text-sm whitespace-pre-wrap break-words text-neutral-900 shadow-xs">
          {message.text}
          <span className="ml-2 align-bottom text-[0.65rem] text-emerald-800">{timeOf(message.createdAt)}</span>
        </div>
      </div>
    );
  }
  return (
    <div className="max-w-[92%] space-y-1" data-testid="simulator-message" data-from="bot" data-message-id={message.messageId}>
      <div className="overflow-hidden rounded-2xl rounded-bl-sm bg-white text-sm text-neutral-900 shadow-xs">
        {message.photo && <img
            src={message.photo}
            alt=""
            className="max-h-64 w-full bg-neutral-100 object-contain"
            // A picture that arrives after its message pushes the chat down: keep the newest message in sight.
            onLoad={(event) => {
              const chat = event.currentTarget.closest('[role="log"]');
              if (chat) chat.scrollTop = chat.scrollHeight;
            }}
          />}
        {(message.text || !message.photo) && <p className="px-3 pt-1.5 whitespace-pre-wrap break-words">{message.text}</p>}
        <p className="px-3 pb-1 text-right text-[0.65rem] text-neutral-600">
          {message.edited ? "edited " : ""}
          {timeOf(message.createdAt)}
        </p>
      </div>
      {message.keyboard && message.keyboard.length > 0 && (
        <div className="space-y-1" data-testid="simulator-keyboard">
          {message.keyboard.map((row, rowIndex) => (
            <div key={rowIndex} className="flex gap-1">
              {row.map((button, index) =>
                button.url ? (
                  <a
                    key={index}
                    href={button.url}
                    target="_blank"
                    rel="noreferrer"
                    className="min-w-0 flex-1 truncate rounded-md bg-white/70 px-2 py-1.5 text-center text-xs font-medium text-sky-800 hover:bg-white"
                  >
                    {button.text} ↗
                  </a>
                ) : (
                  <button
                    key={index}
                    type="button"
                    disabled={disabled || !button.data}
                    onClick={() => button.data && onPress(button.data)}
                    className="min-w-0 flex-1 truncate rounded-md bg-white/70 px-2 py-1.5 text-center text-xs font-medium text-sky-800 hover:bg-white focus-visible:ring-2 focus-visible:ring-sky-700 focus-visible:outline-none disabled:cursor-wait"
                  >
                    {button.text}
                  </button>
                ),
              )}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
