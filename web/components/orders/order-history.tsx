import { useQuery } from "@tanstack/react-query";
import { ScrollText } from "lucide-react";
import { type AuditEntry, readableAuditSummary } from "../../../contract";
import { apiRequest } from "@/lib/api";
import { OrderTimeline } from "./order-timeline";

const TARGET_NAMES: Record<string, string> = {
  order: "Order",
  product: "Product",
  category: "Category",
  postage: "Postage option",
  message: "Message",
  customer: "Customer",
  settings: "Bot settings",
  image: "Product image",
  "private-addresses": "Private addresses",
  // The log names a target by its path's segment when it has no singular of its own (server/http/audit.ts).
  broadcasts: "Broadcast",
  staff: "Staff account",
  session: "Session",
};

const VERB_NAMES: Record<string, string> = {
  create: "created",
  update: "updated",
  delete: "deleted",
  "accept-payment": "payment accepted",
  cancel: "cancelled",
  "cleanup-expired": "expired orders cleaned up",
  "notify-dispatch": "customer told of dispatch",
  reply: "reply sent",
  "mark-read": "marked read",
  block: "blocked",
  unblock: "unblocked",
  upload: "uploaded",
  invite: "invited",
  end: "ended",
};

const AUTH_ACTIONS: Record<string, string> = {
  "auth.login": "Logged in",
  "auth.login-failed": "Failed login",
  "auth.login-code-asked": "Password right, two-factor code asked",
  "two-factor.setup-started": "Two-factor setup started",
  "two-factor.turned-on": "Two-factor turned on",
  "two-factor.turned-off": "Two-factor turned off",
  "two-factor.step-up": "Two-factor code confirmed",
  "auth.logout": "Logged out",
  // Staff (issue 25): whole phrases where "<target> <verb>" would read oddly.
  "staff.new-invite-link": "New invite link made",
  "staff.invite-accepted": "Invite accepted, password set",
  "session.end-others": "Other sessions ended",
};

/**
 * An audit action ("product.update") as a person reads it ("Product updated"); one the server added
 * later shows as itself, readable enough. Shared with the Activity screen.
 */
export function describeAuditAction(action: string): string {
  if (AUTH_ACTIONS[action]) return AUTH_ACTIONS[action];
  const [target = "", verb = ""] = action.split(".");
  const name = TARGET_NAMES[target] ?? target.charAt(0).toUpperCase() + target.slice(1);
  return `${name} ${VERB_NAMES[verb] ?? verb.replaceAll("-", " ")}`.trim();
}

/** How many of an order's changes the dialog shows: an order rarely has more. */
const HISTORY_LIMIT = 50;

/**
 * The order's history from the audit log (issue 13): what the admin did to it and when. Keyed under
 * ["/api/orders", id] so every order write, which reloads the orders, reloads this too.
 */
function useOrderHistory(orderId: string) {
  return useQuery<AuditEntry[]>({
    queryKey: ["/api/orders", orderId, "history"],
    queryFn: () => {
      const search = new URLSearchParams({ targetType: "order", targetId: orderId, limit: String(HISTORY_LIMIT) });
      return apiRequest<AuditEntry[]>("GET", `/api/audit-log?${search.toString()}`);
    },
    staleTime: 0,
  });
}

export function OrderHistory({ orderId }: { orderId: string }) {
  return (
    <OrderTimeline
      id="order-history-heading"
      icon={ScrollText}
      title="Admin history"
      query={useOrderHistory(orderId)}
      loadingText="Loading history..."
      emptyText="No changes by the admin yet"
      entryTestId="order-history-entry"
      testId="order-history"
    >
      {(entry) => (
        <>
          <p className="font-medium">{describeAuditAction(entry.action)}</p>
          {entry.summary && <p className="text-muted-foreground text-xs">{readableAuditSummary(entry.summary)}</p>}
        </>
      )}
    </OrderTimeline>
  );
}
