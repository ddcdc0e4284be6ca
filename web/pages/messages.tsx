import { useEffect, useMemo, useRef, useState } from "react";
import { useSearch } from "wouter";
import { ConversationList } from "@/components/messages/conversation-list";
import { groupConversations } from "@/components/messages/conversations";
import { EmptyThread, MessageThread } from "@/components/messages/message-thread";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { describeError } from "@/lib/api";
import { useMarkMessageRead, useMessages, useUnreadCount } from "@/lib/queries";
import { DESKTOP_QUERY, useMediaQuery } from "@/lib/screen-helpers";

export default function MessagesPage() {
  const messagesQuery = useMessages();
  const unreadQuery = useUnreadCount();
  const { mutate: markRead } = useMarkMessageRead();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  // /messages?user=<telegram id> opens that customer's conversation directly.
  const search = useSearch();
  const [selectedUserId, setSelectedUserId] = useState<string | null>(
    () => new URLSearchParams(search).get("user") || null,
  );

  const allMessages = useMemo(() => messagesQuery.data ?? [], [messagesQuery.data]);
  const conversations = useMemo(() => groupConversations(allMessages), [allMessages]);
  const selected = conversations.find((c) => c.telegramUserId === selectedUserId) ?? null;

  // SPEC §4: opening a conversation marks that customer's unread messages read. Each id is asked
  // for once; the lists reload after each write.
  const requested = useRef(new Set<string>());
  useEffect(() => {
    if (!selectedUserId) return;
    for (const message of allMessages) {
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
  }, [selectedUserId, allMessages, markRead]);

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
          {unread} unread messages
        </Badge>
      </div>

      {messagesQuery.isError && <p className="text-destructive text-sm">{describeError(messagesQuery.error)}</p>}

      <div className="grid gap-4 md:grid-cols-[minmax(260px,1fr)_2fr]">
        {showList && (
          <Card className="flex h-[600px] flex-col gap-0 overflow-hidden py-0">
            <div className="border-b px-4 py-3">
              <h3 className="font-semibold">Conversations</h3>
            </div>
            <ConversationList
              conversations={conversations}
              selectedUserId={selectedUserId}
              onSelect={(conversation) => setSelectedUserId(conversation.telegramUserId)}
              loading={messagesQuery.isLoading}
            />
          </Card>
        )}
        {showThread && (
          <Card className="h-[600px] gap-0 overflow-hidden py-0" data-testid="message-panel">
            {selectedUserId ? (
              <MessageThread
                key={selectedUserId}
                telegramUserId={selectedUserId}
                telegramUsername={selected?.telegramUsername ?? null}
                onBack={isDesktop ? undefined : () => setSelectedUserId(null)}
              />
            ) : (
              <EmptyThread />
            )}
          </Card>
        )}
      </div>
    </div>
  );
}
