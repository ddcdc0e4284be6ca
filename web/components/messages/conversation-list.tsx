import { MessageSquare } from "lucide-react";
import { LANGUAGE_NAMES } from "../../../contract";
import { ListPager, type Pager } from "@/components/list-pager";
import { cn } from "@/lib/utils";
import { avatarColor, type Conversation, displayName, initials, messageTime } from "./conversations";

export function CustomerAvatar({ customer }: { customer: Pick<Conversation, "telegramUserId" | "telegramUsername"> }) {
  return (
    <div
      className={cn(
        "flex size-10 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-white",
        avatarColor(customer.telegramUserId),
      )}
      aria-hidden="true"
    >
      {initials(customer)}
    </div>
  );
}

export function ConversationList({
  conversations,
  pager,
  selectedUserId,
  onSelect,
  loading,
}: {
  /** The page of conversations shown; `pager` moves between the server's pages. */
  conversations: Conversation[];
  pager: Pager;
  selectedUserId: string | null;
  onSelect: (conversation: Conversation) => void;
  loading: boolean;
}) {

  if (loading) return <p className="text-muted-foreground p-6 text-center text-sm">Loading conversations...</p>;
  if (conversations.length === 0) {
    return (
      <div className="p-8 text-center">
        <MessageSquare className="text-muted-foreground mx-auto mb-3 size-10" />
        <p className="text-muted-foreground">No conversations yet</p>
      </div>
    );
  }
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ul className="relative min-h-0 flex-1 divide-y overflow-y-auto" aria-label="Conversations">
        {conversations.map((conversation) => {
          const selected = conversation.telegramUserId === selectedUserId;
          return (
            <li key={conversation.telegramUserId}>
              <button
                type="button"
                onClick={() => onSelect(conversation)}
                aria-current={selected ? "true" : undefined}
                data-testid="conversation"
                className={cn(
                  "hover:bg-muted/60 flex w-full cursor-pointer items-center gap-3 px-4 py-3 text-left transition-colors",
                  selected && "bg-muted",
                )}
              >
                <CustomerAvatar customer={conversation} />
                <div className="min-w-0 flex-1">
                  <div className="flex items-baseline justify-between gap-2">
                    <p className={cn("min-w-0 text-sm [overflow-wrap:anywhere]", conversation.unreadCount > 0 ? "font-semibold" : "font-medium")}>
                      {displayName(conversation)}
                      {conversation.language && (
                        <span className="text-muted-foreground ml-1.5 text-xs font-normal uppercase" lang={conversation.language} title={LANGUAGE_NAMES[conversation.language]}>
                          <span aria-hidden="true">{conversation.language}</span>
                          <span className="sr-only">, {LANGUAGE_NAMES[conversation.language]}</span>
                        </span>
                      )}
                    </p>
                    <span className="text-muted-foreground shrink-0 text-xs">
                      {messageTime(conversation.lastMessageAt)}
                    </span>
                  </div>
                  <div className="flex items-center justify-between gap-2">
                    <p className="text-muted-foreground truncate text-sm">
                      {conversation.lastIsFromCustomer ? "" : "You: "}
                      {conversation.lastMessage}
                    </p>
                    {conversation.unreadCount > 0 && (
                      <span className="size-2.5 shrink-0 rounded-full bg-blue-600" data-testid="unread-dot">
                        <span className="sr-only">Unread</span>
                      </span>
                    )}
                  </div>
                </div>
              </button>
            </li>
          );
        })}
      </ul>
      {(pager.pageCount > 1 || pager.page > 1) && (
        <div className="border-t px-4 pb-3">
          <ListPager paged={pager} label="conversations" compact />
        </div>
      )}
    </div>
  );
}
