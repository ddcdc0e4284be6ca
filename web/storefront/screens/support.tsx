import { useEffect, useId, useRef, useState } from "react";
import { MESSAGE_MAX_LENGTH } from "../../../contract/messages";
import type { StorefrontMessage } from "../../../contract/storefront";
import { useStorefront } from "../context";
import { haptic } from "../telegram";
import { cx, FieldError, Loading, Problem, PrimaryAction, ScreenTitle, usePolling } from "../ui";

// Support: the customer's conversation with the shop (the same thread the bot's messages make), asked
// for again every few seconds while the screen is open, and a box to write in.

const POLL_MS = 5_000;

export function SupportScreen() {
  const { api, texts, catalogue } = useStorefront();
  const [messages, setMessages] = useState<StorefrontMessage[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [sendError, setSendError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const fieldId = useId();
  const end = useRef<HTMLDivElement>(null);
  const times = new Intl.DateTimeFormat(catalogue.language, { dateStyle: "short", timeStyle: "short" });

  usePolling(async () => {
    try {
      setMessages((await api.messages()).messages);
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : texts.loadFailed);
    }
  }, POLL_MS);

  const count = messages?.length ?? 0;
  useEffect(() => {
    if (count) end.current?.scrollIntoView({ block: "end" });
  }, [count]);

  const send = async () => {
    const message = draft.trim();
    if (!message || sending) return;
    setSending(true);
    setSendError(undefined);
    try {
      const sent = await api.sendMessage({ message });
      setMessages((current) => [...(current ?? []).filter((existing) => existing.id !== sent.id), sent]);
      setDraft("");
      haptic.success();
    } catch (error) {
      haptic.error();
      setSendError(error instanceof Error ? error.message : texts.loadFailed);
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <ScreenTitle>{texts.supportTitle}</ScreenTitle>
      <p className="mb-3 text-sm text-muted-foreground">{texts.supportIntro}</p>
      {problem && <Problem message={problem} />}
      {!messages ? (
        !problem && <Loading />
      ) : messages.length === 0 ? (
        <p className="py-4 text-center text-muted-foreground">{texts.noMessages}</p>
      ) : (
        <ol className="mb-4 grid gap-2" aria-label={texts.supportTitle} aria-live="polite">
          {messages.map((message) => (
            <li
              key={message.id}
              className={cx("max-w-[85%] rounded-lg px-3 py-2 text-sm", message.fromShop ? "justify-self-start border bg-card" : "justify-self-end bg-primary text-primary-foreground")}
            >
              <span className="sr-only">{message.fromShop ? texts.shop : texts.you}: </span>
              <p className="break-words whitespace-pre-line">{message.message}</p>
              <p className={cx("mt-1 text-xs", message.fromShop ? "text-muted-foreground" : "opacity-90")}>{times.format(new Date(message.createdAt))}</p>
            </li>
          ))}
        </ol>
      )}
      <div ref={end} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label htmlFor={fieldId} className="mb-1 block text-sm font-medium">
          {texts.messageLabel}
        </label>
        <textarea
          id={fieldId}
          value={draft}
          maxLength={MESSAGE_MAX_LENGTH}
          rows={3}
          onChange={(event) => setDraft(event.target.value)}
          aria-invalid={sendError ? true : undefined}
          aria-describedby={sendError ? `${fieldId}-error` : undefined}
          className="w-full rounded-md border border-input bg-card p-3 text-base"
        />
        <FieldError id={`${fieldId}-error`} message={sendError} />
      </form>
      <PrimaryAction text={texts.send} onClick={() => void send()} busy={sending} disabled={!draft.trim()} />
    </>
  );
}
