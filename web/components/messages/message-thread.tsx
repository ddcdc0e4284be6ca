import { ArrowLeft, MessagesSquare, Send } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { CustomerMessage } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toast } from "@/hooks/use-toast";
import { describeError } from "@/lib/api";
import { useSendMessage, useUserMessages } from "@/lib/queries";
import { cn } from "@/lib/utils";
import type { Language } from "../../../contract";
import { LanguageBadge } from "@/components/customers/customer-bits";
import { CustomerAvatar } from "./conversation-list";
import { displayName, messageTime } from "./conversations";

export function EmptyThread() {
  return (
    <div className="flex h-full flex-col items-center justify-center p-8 text-center">
      <MessagesSquare className="text-muted-foreground mb-3 size-12" />
      <p className="font-medium">Select a conversation</p>
      <p className="text-muted-foreground text-sm">Choose a customer to start messaging</p>
    </div>
  );
}

export function MessageThread({
  telegramUserId,
  telegramUsername,
  language = null,
  onBack,
}: {
  telegramUserId: string;
  /** The language the bot speaks to them (issue 26), as the conversation list knows it. */
  language?: Language | null;
  /** The customer's username as the conversation list knows it, until the thread has loaded. */
  telegramUsername: string | null;
  /** On phones the thread replaces the list; this goes back to it. */
  onBack?: () => void;
}) {
  const threadQuery = useUserMessages(telegramUserId);
  const sendMessage = useSendMessage();
  const [reply, setReply] = useState("");
  const endRef = useRef<HTMLDivElement>(null);

  const messages = useMemo(
    () =>
      [...(threadQuery.data ?? [])].sort(
        (a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime(),
      ),
    [threadQuery.data],
  );
  const username =
    [...messages].reverse().find((m) => m.telegramUsername)?.telegramUsername ?? telegramUsername ?? null;
  const customer = { telegramUserId, telegramUsername: username };

  // Keep the newest message in view when the thread opens or grows.
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: "end" });
  }, [messages.length, telegramUserId]);

  const send = () => {
    const text = reply.trim();
    if (!text || sendMessage.isPending) return;
    sendMessage.mutate(
      { telegramUserId, telegramUsername: username, message: text, isFromCustomer: false, isRead: true },
      {
        onSuccess: () => {
          setReply("");
          toast({ title: "Message sent successfully!" });
        },
        onError: (error) => toast({ title: "Failed to send message", description: describeError(error), variant: "destructive" }),
      },
    );
  };

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex items-center gap-3 border-b px-4 py-3">
        {onBack && (
          <Button variant="ghost" size="icon" onClick={onBack} aria-label="Back to conversations">
            <ArrowLeft />
          </Button>
        )}
        <CustomerAvatar customer={customer} />
        <div className="min-w-0">
          <div className="flex min-w-0 items-center gap-2">
            <p className="truncate font-semibold" data-testid="thread-customer">
              {displayName(customer)}
            </p>
            {language && <LanguageBadge language={language} />}
          </div>
          <p className="text-muted-foreground truncate text-xs">Telegram ID: {telegramUserId}</p>
        </div>
      </div>

      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-4" role="log" aria-label="Messages">
        {threadQuery.isLoading ? (
          <p className="text-muted-foreground text-center text-sm">Loading messages...</p>
        ) : threadQuery.isError ? (
          <p className="text-destructive text-center text-sm">{describeError(threadQuery.error)}</p>
        ) : messages.length === 0 ? (
          <p className="text-muted-foreground py-8 text-center text-sm">No messages in this conversation</p>
        ) : (
          messages.map((message) => <Bubble key={message.id} message={message} />)
        )}
        <div ref={endRef} />
      </div>

      <form
        className="flex gap-2 border-t p-3"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <Input
          placeholder="Type your reply..."
          aria-label="Reply"
          value={reply}
          onChange={(event) => setReply(event.target.value)}
          autoComplete="off"
        />
        <Button type="submit" disabled={!reply.trim() || sendMessage.isPending} aria-label="Send">
          <Send />
          <span className="hidden sm:inline">{sendMessage.isPending ? "Sending..." : "Send"}</span>
        </Button>
      </form>
    </div>
  );
}

export function Bubble({ message }: { message: CustomerMessage }) {
  const fromCustomer = message.isFromCustomer;
  return (
    <div className={cn("flex", fromCustomer ? "justify-start" : "justify-end")} data-testid={fromCustomer ? "customer-bubble" : "admin-bubble"}>
      <div
        className={cn(
          "max-w-[80%] rounded-2xl px-4 py-2 text-sm shadow-xs",
          fromCustomer ? "bg-muted rounded-bl-sm" : "bg-primary text-primary-foreground rounded-br-sm",
        )}
      >
        <p className="break-words whitespace-pre-wrap">{message.message}</p>
        <p className={cn("mt-1 text-[11px]", fromCustomer ? "text-muted-foreground" : "text-primary-foreground/70")}>
          {messageTime(message.createdAt)}
        </p>
      </div>
    </div>
  );
}
