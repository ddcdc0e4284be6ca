import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { BULK_DISPATCH_MAX, type BulkDispatchResult, type DispatchNoticeHeld, type Language } from "../../../contract";
import type { Db } from "../../db/client";
import { orders } from "../../db/schema";
import { conflict, consoleLogger, isUuid, notFound, reasonOf, ShopError, shortOrderId, unavailable, type CustomerNotifier, type WarningLogger } from "../common";
import { dispatchNotice, parcelLines, trackingUrl } from "./carriers";
import { messageLanguageOf, type Translator, translatorFor } from "../languages";
import { recordOrderEvent } from "./order-events";
import { filterConditions, type OrderFilters } from "./order-list";
import { updateOrderStatus } from "./orders";

// The customer's dispatch message, held for the owner's undo window (issue 22;
// docs/decisions/0027-dispatch-notice-held.md). notify-dispatch holds it in the order's row with a due
// time; the sender (server/jobs.ts, sendDueDispatchNotices) sends each due message once; undo-dispatch
// takes the order back to Ready to Dispatch while its message is still held. The hold lives in the
// database, not in the owner's browser tab: closing the tab neither loses nor repeats the message,
// and a restart finds it where it was.

/**
 * The dispatch message in the customer's language. English is the dashboard's preview word for word
 * (contract/dispatch-notice.ts); the parcel lines (carrier, tracking) stay as the preview writes them.
 */
export function dispatchNoticeIn(order: { id: string; carrier: string | null; trackingNumber: string | null; note?: string | null }, language: Language): string {
  if (language === "en") return dispatchNotice(order);
  const tr = translatorFor(language);
  return [
    tr.t("dispatch-title", { order: shortOrderId(order.id) }),
    ...parcelLinesIn(order, tr),
    ...(order.note ? [tr.t("dispatch-note", { note: order.note })] : []),
    tr.t("dispatch-thanks"),
  ].join("\n");
}

/**
 * Where a dispatched parcel is, in the customer's language (My Orders, the dispatch message). English
 * is the dashboard's preview's lines (contract/dispatch-notice.ts parcelLines) word for word.
 */
export function parcelLinesIn(order: { carrier: string | null; trackingNumber: string | null }, tr: Translator): string[] {
  if (tr.language === "en") return parcelLines(order);
  const link = trackingUrl(order.carrier, order.trackingNumber);
  return [
    ...(order.carrier ? [tr.t("parcel-carrier", { carrier: order.carrier })] : []),
    ...(order.trackingNumber ? [tr.t("parcel-tracking-number", { number: order.trackingNumber })] : []),
    ...(link ? [tr.t("parcel-track-link", { link })] : []),
  ];
}

/** How long the owner may undo a dispatch before the customer is told (the toast's Undo), by default. */
export const DISPATCH_UNDO_WINDOW_MS = 10_000;

export type DispatchNoticeDeps = {
  db: Db;
  notifier: CustomerNotifier;
  now: () => Date;
  /** The undo window; 0 sends the message at once, in the request (no undo). */
  undoWindowMs: number;
  logger?: WarningLogger;
};

type OrderRow = typeof orders.$inferSelect;

async function lockOrder(tx: Parameters<Parameters<Db["transaction"]>[0]>[0], id: string): Promise<OrderRow> {
  const [row] = isUuid(id) ? await tx.select().from(orders).where(eq(orders.id, id)).for("update") : [];
  if (!row) throw notFound("Order not found.");
  return row;
}

/**
 * POST /api/orders/{id}/notify-dispatch: the order must be dispatched; its message is held until
 * now + the undo window. Asked again while held (a replay, a second tab), the same hold stands:
 * the customer still gets one message. Once sent, a second message is refused; once it failed
 * (Telegram refused), asking again tries again.
 */
export async function holdDispatchNotice(deps: DispatchNoticeDeps, id: string, note?: string | null): Promise<DispatchNoticeHeld> {
  const now = deps.now();
  const held = await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, id);
    const name = `Order #${shortOrderId(order.id)}`;
    if (order.status !== "dispatched") {
      throw conflict(`${name} is ${order.status}; the customer is notified only once it is dispatched.`);
    }
    if (order.dispatchNoticeState === "held") return order.dispatchNoticeDueAt!;
    if (order.dispatchNoticeState === "sending" || order.dispatchNoticeState === "sent") {
      throw conflict(`${name}: the customer has already been sent the dispatch message.`);
    }
    const dueAt = new Date(now.getTime() + deps.undoWindowMs);
    await tx
      .update(orders)
      .set({ dispatchNoticeState: "held", dispatchNoticeDueAt: dueAt, dispatchNoticeNote: note || null })
      .where(eq(orders.id, order.id));
    return dueAt;
  });
  if (deps.undoWindowMs > 0) return { heldUntil: held.toISOString() };
  // No undo window: sent now, and a refusal answered to the owner as before the hold existed.
  const outcome = await sendDispatchNotice(deps, id);
  if (outcome.result === "failed") {
    throw unavailable(`The order is dispatched, but the customer could not be notified. ${outcome.reason}`);
  }
  return { heldUntil: null };
}

/**
 * POST /api/orders/{id}/undo-dispatch: back to Ready to Dispatch (processing), its carrier and tracking
 * number cleared, while its message is still held and due later than now. The one conditional
 * change under the row lock that the sender's claim also takes: an undo and a send never both happen.
 */
export async function undoDispatch(deps: Pick<DispatchNoticeDeps, "db" | "now">, id: string): Promise<OrderRow> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, id);
    const name = `Order #${shortOrderId(order.id)}`;
    if (order.status !== "dispatched") {
      throw conflict(`${name} is ${order.status}; only a dispatched order can be undone.`);
    }
    const stillHeld = order.dispatchNoticeState === "held" && order.dispatchNoticeDueAt !== null && order.dispatchNoticeDueAt > now;
    if (!stillHeld) {
      throw conflict(
        order.dispatchNoticeState === null
          ? `${name} can no longer be undone: a dispatch can be undone only in the seconds before its customer is told.`
          : `${name} can no longer be undone: the undo window has ended and the customer has been told it was dispatched.`,
      );
    }
    const [updated] = await tx
      .update(orders)
      .set({ status: "processing", carrier: null, trackingNumber: null, dispatchNoticeState: null, dispatchNoticeDueAt: null, dispatchNoticeNote: null, updatedAt: now })
      .where(eq(orders.id, order.id))
      .returning();
    await recordOrderEvent(
      tx,
      { orderId: order.id, actor: "admin", action: "dispatch_undone", detail: "Dispatch undone before the customer was told: Ready to Dispatch again." },
      now,
    );
    return updated!;
  });
}

type SendOutcome = { result: "sent" } | { result: "failed"; reason: string } | { result: "none" };

/**
 * Claims one due message (held -> sending, the row locked and skipped by any other sender) and sends
 * it; `orderId` claims that order's only. At most once: a sender that dies between the claim and
 * Telegram's answer leaves it "sending", never sent twice (as broadcasts, docs/decisions/0019).
 */
async function sendDispatchNotice(deps: Omit<DispatchNoticeDeps, "undoWindowMs">, orderId?: string): Promise<SendOutcome> {
  const now = deps.now();
  const claimed = await deps.db.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          sql`${orders.dispatchNoticeState} = 'held'`,
          lte(orders.dispatchNoticeDueAt, now),
          ...(orderId ? [eq(orders.id, orderId)] : []),
        ),
      )
      .orderBy(asc(orders.dispatchNoticeDueAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!due) return undefined;
    const [row] = await tx
      .update(orders)
      .set({ dispatchNoticeState: "sending" })
      .where(and(eq(orders.id, due.id), eq(orders.dispatchNoticeState, "held")))
      .returning();
    return row;
  });
  if (!claimed) return { result: "none" };
  let failure: string | null = null;
  try {
    const language = await messageLanguageOf(deps.db, claimed.telegramUserId);
    await deps.notifier.sendMessage(claimed.telegramUserId, dispatchNoticeIn({ ...claimed, note: claimed.dispatchNoticeNote }, language));
  } catch (error) {
    // Claimed, so never thrown on: the outcome is recorded whatever went wrong.
    failure = error instanceof ShopError ? error.message : reasonOf(error);
  }
  await deps.db.transaction(async (tx) => {
    await tx
      .update(orders)
      .set({ dispatchNoticeState: failure === null ? "sent" : "failed" })
      .where(eq(orders.id, claimed.id));
    if (failure !== null) {
      await recordOrderEvent(
        tx,
        { orderId: claimed.id, actor: "system", action: "dispatch_notice_failed", detail: `The dispatch message could not be sent: ${failure}` },
        deps.now(),
      );
    }
  });
  if (failure !== null) {
    (deps.logger ?? consoleLogger).warn({ orderId: claimed.id, err: failure }, "the customer could not be told their order was dispatched");
    return { result: "failed", reason: failure };
  }
  return { result: "sent" };
}

/** Sends every dispatch message now due, one at a time; answers how many were handled. */
export async function sendDueDispatchNotices(deps: Omit<DispatchNoticeDeps, "undoWindowMs">): Promise<number> {
  let handled = 0;
  for (;;) {
    const outcome = await sendDispatchNotice(deps);
    if (outcome.result === "none") return handled;
    handled += 1;
  }
}

/** How often the sender looks for due messages: a held message reaches its customer this long after its due time at most. */
export const DISPATCH_NOTICE_POLL_MS = 500;

export type DispatchNoticeSender = { start(): void; stop(): Promise<void> };

/**
 * The sender: looks for due messages every `intervalMs` on every instance (the claims share the
 * work, so it takes no leader lock). A look is one index read of the held messages.
 */
export function createDispatchNoticeSender(deps: Omit<DispatchNoticeDeps, "undoWindowMs">, intervalMs = DISPATCH_NOTICE_POLL_MS): DispatchNoticeSender {
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> = Promise.resolve();
  const tick = () => {
    current = sendDueDispatchNotices(deps)
      .then(() => undefined)
      .catch((error: unknown) => (deps.logger ?? consoleLogger).warn({ err: reasonOf(error) }, "dispatch messages: the queue could not be read; trying again"))
      .finally(() => {
        if (running) timer = setTimeout(tick, intervalMs);
      });
  };
  return {
    start() {
      if (running) return;
      running = true;
      tick();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
}

/**
 * POST /api/orders/bulk-dispatch (issue 22): the ticked orders, or every order the filter matches
 * ("Select all N matching", beyond the page shown; at most BULK_DISPATCH_MAX, oldest first). Each
 * order Ready to Dispatch is dispatched and its message held, one by one through the same rules as a
 * single dispatch; the others are skipped with the reason, so the owner gets one clear summary.
 */
export async function bulkDispatch(
  deps: DispatchNoticeDeps,
  target: { ids: string[] } | { filter: Omit<OrderFilters, "sort"> },
): Promise<BulkDispatchResult> {
  const conditions = "ids" in target ? [inArray(orders.id, target.ids)] : await filterConditions(deps.db, { ...target.filter, sort: "oldest" });
  const matched = await deps.db
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(and(...conditions))
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .limit(BULK_DISPATCH_MAX + 1);
  if (matched.length > BULK_DISPATCH_MAX) {
    throw conflict(`More than ${BULK_DISPATCH_MAX} orders match: narrow the filter, then dispatch them in parts.`);
  }
  const result: BulkDispatchResult = { dispatched: [], skipped: [], notNotified: [], heldUntil: null };
  if ("ids" in target) {
    const found = new Set(matched.map((order) => order.id));
    for (const id of target.ids) if (!found.has(id)) result.skipped.push({ id, reason: "Order not found." });
  }
  for (const order of matched) {
    if (order.status !== "processing") {
      result.skipped.push({ id: order.id, reason: `Order #${shortOrderId(order.id)} is ${order.status}, not Ready to Dispatch.` });
      continue;
    }
    try {
      await updateOrderStatus(deps.db, order.id, { status: "dispatched" }, deps.now());
    } catch (error) {
      // Changed meanwhile (another tab dispatched it, or it was refunded): left as it is.
      if (!(error instanceof ShopError)) throw error;
      result.skipped.push({ id: order.id, reason: error.message });
      continue;
    }
    result.dispatched.push(order.id);
    try {
      const held = await holdDispatchNotice(deps, order.id);
      if (held.heldUntil && (result.heldUntil === null || held.heldUntil < result.heldUntil)) result.heldUntil = held.heldUntil;
    } catch (error) {
      // Dispatched all the same; its message refused at once (no undo window): said apart.
      if (!(error instanceof ShopError)) throw error;
      result.notNotified.push({ id: order.id, reason: error.message });
    }
  }
  return result;
}
