import { useEffect, useMemo, useRef } from "react";
import { ConversationList } from "@/components/messages/conversation-list";
import { CustomerContext } from "@/components/messages/customer-context";
import { EmptyThread, MessageThread } from "@/components/messages/message-thread";
import { useListUrl, useServerPager } from "@/components/server-list";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { describeError } from "@/lib/api";
import { useConversationPage, useMarkMessageRead, useUnreadCount, useUserMessages } from "@/lib/queries";
import { DESKTOP_QUERY, useMediaQuery } from "@/lib/screen-helpers";
import { countOf } from "@/lib/utils";

/** Conversations per page of the list. */
const CONVERSATIONS_PER_PAGE = 50;

export default function MessagesPage() {
  // One row per customer from the server (issue 12): the screen no longer loads every message.
  // The list's page and the open conversation live in the URL, so a reload keeps both.
  const url = useListUrl();
  const conversationsQuery = useConversationPage({ limit: CONVERSATIONS_PER_PAGE, cursor: url.position.cursor ?? undefined });
  const conversations = conversationsQuery.data?.rows ?? [];
  const pager = useServerPager({ url, query: conversationsQuery, resetKey: "", pageSize: CONVERSATIONS_PER_PAGE });
  const unreadQuery = useUnreadCount();
  const { mutate: markRead } = useMarkMessageRead();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  // /messages?user=<telegram id> opens that customer's conversation directly.
  const selectedUserId = url.params.get("user") || null;
  const setSelectedUserId = (telegramUserId: string | null) => url.update({ user: telegramUserId });
  // The open conversation's messages (the thread shows the same cached read).
  const threadQuery = useUserMessages(selectedUserId);
  const thread = useMemo(() => threadQuery.data ?? [], [threadQuery.data]);
  const selected = conversations.find((c) => c.telegramUserId === selectedUserId) ?? null;
  const latestUsername = [...thread].reverse().find((message) => message.telegramUsername)?.telegramUsername ?? null;

  // docs/product.md §4: opening a conversation marks that customer's unread messages read. Each id is asked
  // for once; the lists reload after each write.
  const requested = useRef(new Set<string>());
  useEffect(() => {
    if (!selectedUserId) return;
    for (const message of thread) {
      if (
        message.telegramUserId === selectedUserId &&
        message.isFromCustomer &&
        !message.isRead &&
        !requested.current.has(message.id)
      ) {
        requested.current.add(message.id);
        markRead(message.id);
      }
    }
  }, [selectedUserId, thread, markRead]);

  const unread = unreadQuery.data?.count ?? 0;
  const showList = isDesktop || !selectedUserId;
  const showThread = isDesktop || selectedUserId !== null;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Customer Messages</h2>
          <p className="text-muted-foreground">Reply to your customers in Telegram</p>
        </div>
        <Badge
          variant={unread > 0 ? "destructive" : "secondary"}
          className="text-sm"
          data-testid="unread-count"
        >
          {countOf(unread, "unread message")}
        </Badge>
      </div>

      {conversationsQuery.isError && (
        <p className="text-destructive text-sm">{describeError(conversationsQuery.error)}</p>
      )}

      <div className="grid gap-4 md:grid-cols-[minmax(260px,1fr)_2fr] xl:grid-cols-[minmax(260px,1fr)_2fr_minmax(260px,1fr)]">
        {showList && (
          <Card className="flex h-[600px] flex-col gap-0 overflow-hidden py-0">
            <div className="border-b px-4 py-3">
              <h3 className="font-semibold">Conversations</h3>
            </div>
            <ConversationList
              conversations={conversations}
              pager={pager}
              selectedUserId={selectedUserId}
              onSelect={(conversation) => setSelectedUserId(conversation.telegramUserId)}
              loading={conversationsQuery.isLoading}
            />
          </Card>
        )}
        {showThread && (
          <Card className="h-[600px] gap-0 overflow-hidden py-0" data-testid="message-panel">
            {selectedUserId ? (
              <MessageThread
                key={selectedUserId}
                telegramUserId={selectedUserId}
                telegramUsername={selected?.telegramUsername ?? latestUsername}
                language={selected?.language ?? null}
                onBack={isDesktop ? undefined : () => setSelectedUserId(null)}
              />
            ) : (
              <EmptyThread />
            )}
          </Card>
        )}
        {/* Beside the thread on wide screens, under it on narrower ones. */}
        {selectedUserId && (
          <div className="md:col-span-2 xl:col-span-1">
            <CustomerContext key={selectedUserId} telegramUserId={selectedUserId} />
          </div>
        )}
      </div>
    </div>
  );
}
