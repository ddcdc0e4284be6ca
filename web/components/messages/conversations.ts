// One conversation per customer comes from the server (GET /api/messages/conversations, issue 12).
import { formatDate, formatTime } from "@/lib/dates";
export type { Conversation } from "../../../contract";

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

/** docs/product.md §9: five avatar colours, chosen by the length of the customer's id. */
export const AVATAR_COLORS = [
  "bg-blue-700",
  "bg-green-700",
  "bg-purple-700",
  "bg-orange-700",
  "bg-pink-700",
] as const;

export function avatarColor(telegramUserId: string): string {
  return AVATAR_COLORS[telegramUserId.length % AVATAR_COLORS.length]!;
}

/** Today's messages show the time, older ones the date. */
export function messageTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay ? formatTime(iso) : formatDate(iso);
}
