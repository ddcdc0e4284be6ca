import type { CustomerMessage } from "../../../contract";

export type Conversation = {
  telegramUserId: string;
  telegramUsername: string | null;
  lastMessage: CustomerMessage;
  unread: number;
};

const time = (m: CustomerMessage) => new Date(m.createdAt).getTime();

/** One conversation per customer, the one with the latest message first (SPEC §2). */
export function groupConversations(messages: CustomerMessage[]): Conversation[] {
  const byUser = new Map<string, Conversation>();
  for (const message of messages) {
    const current = byUser.get(message.telegramUserId);
    const unread = message.isFromCustomer && !message.isRead ? 1 : 0;
    if (!current) {
      byUser.set(message.telegramUserId, {
        telegramUserId: message.telegramUserId,
        telegramUsername: message.telegramUsername,
        lastMessage: message,
        unread,
      });
      continue;
    }
    current.unread += unread;
    if (time(message) >= time(current.lastMessage)) {
      current.lastMessage = message;
      // The newest known username wins (customers can change theirs).
      if (message.telegramUsername) current.telegramUsername = message.telegramUsername;
    } else if (!current.telegramUsername && message.telegramUsername) {
      current.telegramUsername = message.telegramUsername;
    }
  }
  return [...byUser.values()].sort((a, b) => time(b.lastMessage) - time(a.lastMessage));
}

export function displayName(c: { telegramUsername: string | null; telegramUserId: string }): string {
  return c.telegramUsername ? `@${c.telegramUsername}` : c.telegramUserId;
}

export function initials(c: { telegramUsername: string | null; telegramUserId: string }): string {
  const name = c.telegramUsername ?? "";
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length >= 2) return (words[0]![0]! + words[1]![0]!).toUpperCase();
  if (words.length === 1) return words[0]!.slice(0, 2).toUpperCase();
  return c.telegramUserId.slice(0, 2).toUpperCase() || "?";
}

/** SPEC §9: five avatar colours, chosen by the length of the customer's id. */
export const AVATAR_COLORS = [
  "bg-blue-500",
  "bg-green-500",
  "bg-purple-500",
  "bg-orange-500",
  "bg-pink-500",
] as const;

export function avatarColor(telegramUserId: string): string {
  return AVATAR_COLORS[telegramUserId.length % AVATAR_COLORS.length]!;
}

/** Today's messages show the time, older ones the date. */
export function messageTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay
    ? date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString("en-GB", { day: "numeric", month: "short" });
}
