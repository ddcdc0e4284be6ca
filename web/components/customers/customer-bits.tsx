import { Ban } from "lucide-react";
import { type Customer, LANGUAGE_NAMES, type Language } from "../../../contract";
import { Badge } from "@/components/ui/badge";
import { countOf } from "@/lib/utils";

// Small pieces the Customers list and a customer's page share (issue 13).

export const customerPath = (customer: Pick<Customer, "telegramUserId">) => `/customers/${customer.telegramUserId}`;

export function BlockedBadge() {
  return (
    <Badge variant="outline" className="border-red-200 bg-red-50 text-red-800" data-testid="blocked-badge">
      <Ban aria-hidden="true" />
      Blocked
    </Badge>
  );
}

/** "2 unread messages" as a badge; a plain 0 when there are none. */
export function UnreadBadge({ count }: { count: number }) {
  if (count === 0) return <span className="text-muted-foreground">0</span>;
  return (
    <Badge variant="outline" className="border-amber-200 bg-amber-50 text-amber-900">
      {countOf(count, "unread message")}
    </Badge>
  );
}

/** The language the bot speaks to a customer (issue 26), in its own words; "Not known yet" before the bot has seen one. */
export function LanguageBadge({ language }: { language: Language | null }) {
  if (!language) return <span className="text-muted-foreground text-xs">Not known yet</span>;
  return (
    <Badge variant="outline" lang={language} data-testid="language-badge">
      {LANGUAGE_NAMES[language]}
    </Badge>
  );
}
