import { z } from "zod";
import {
  BulkDispatchResultSchema,
  BulkDispatchSchema,
  DispatchNoticeHeldSchema,
  ExpiredOrdersSchema,
  NotifyDispatchSchema,
  OrderEventSchema,
  OrderItemSchema,
  OrderListQuerySchema,
  OrderSchema,
  OrderStatusUpdateSchema,
  SuccessSchema,
} from "../../../contract";
import { bulkDispatch, acceptPayment, cancelOrder, cleanupExpiredOrders, deleteOrder, getOrderEvents, getOrderItems, holdDispatchNotice, orderOf, undoDispatch, updateOrderStatus, listOrderPage, listOrdersMatching } from "../../shop/orders";
import type { Routes } from "../deps";
import { isPaged, sendPage } from "../paging";
import { ERROR_ANSWERS, pagedList } from "../openapi";
import { accountCan, may } from "../security";

const IdParams = z.object({ id: z.string() });
const answers = <T extends z.ZodType>(schema: T) => ({ response: { 200: schema, ...ERROR_ANSWERS } });
const anOrder = answers(OrderSchema);
const done = answers(SuccessSchema);

export const orderRoutes: Routes = (app, deps) => {
  // Without "orders.addresses" the answers carry no address (address-withholding.ts), and a search
  // does not look at names and postcodes either.
  app.get("/api/orders", { ...may("orders.read"), schema: { querystring: OrderListQuerySchema, ...answers(pagedList(OrderSchema)) } }, async (request, reply) => {
    const scope = { byAddress: accountCan(request, "orders.addresses") };
    return isPaged(request.query)
      ? sendPage(request, reply, await listOrderPage(deps.db, request.query, scope))
      : listOrdersMatching(deps.db, request.query, scope);
  });

  app.get("/api/orders/:id/items", { ...may("orders.read"), schema: { params: IdParams, ...answers(z.array(OrderItemSchema)) } }, async (request) =>
    getOrderItems(deps.db, request.params.id),
  );

  app.get("/api/orders/:id/events", { ...may("orders.read"), schema: { params: IdParams, ...answers(z.array(OrderEventSchema)) } }, async (request) =>
    getOrderEvents(deps.db, request.params.id),
  );

  // Its only changes are a packer's: dispatched (with the tracking) and completed (ADMIN_TRANSITIONS).
  app.put("/api/orders/:id", { ...may("orders.dispatch"), schema: { params: IdParams, body: OrderStatusUpdateSchema, ...anOrder } }, async (request) =>
    updateOrderStatus(deps.db, request.params.id, request.body, deps.now()),
  );

  app.delete("/api/orders/:id", { ...may("orders.manage"), schema: { params: IdParams, ...done } }, async (request) => {
    await deleteOrder(deps.db, request.params.id, deps.now());
    return { success: true as const };
  });

  // The owner settles a pending order's money (docs/product.md rule 4, docs/decisions/0006).
  app.post("/api/orders/:id/accept-payment", { ...may("orders.manage"), schema: { params: IdParams, ...anOrder } }, async (request) =>
    acceptPayment({ ...deps, logger: request.log }, request.params.id),
  );

  app.post("/api/orders/:id/cancel", { ...may("orders.manage"), schema: { params: IdParams, ...anOrder } }, async (request) =>
    cancelOrder({ ...deps, logger: request.log }, request.params.id),
  );

  app.post("/api/orders/cleanup-expired", { ...may("orders.manage"), schema: answers(ExpiredOrdersSchema) }, async (request) => {
    // The customers are told in the background: the owner's answer does not wait for Telegram.
    const { expiredOrderIds } = await cleanupExpiredOrders({ ...deps, logger: request.log });
    return { expiredOrderIds };
  });

  // The customer's message is held for the undo window, then sent by the dispatch-notice sender
  // (server/jobs.ts; docs/decisions/0027-dispatch-notice-held.md).
  app.post("/api/orders/:id/notify-dispatch", { ...may("orders.dispatch"), schema: { params: IdParams, body: NotifyDispatchSchema, ...answers(DispatchNoticeHeldSchema) } }, async (request) => {
    const held = await holdDispatchNotice({ ...deps, undoWindowMs: deps.config.dispatchUndoMs, logger: request.log }, request.params.id, request.body?.note);
    return { success: true as const, ...held };
  });

  // Registered before the :id routes' siblings read "bulk-dispatch" as an id (Fastify prefers the static path anyway).
  app.post("/api/orders/bulk-dispatch", { ...may("orders.dispatch"), schema: { body: BulkDispatchSchema, ...answers(BulkDispatchResultSchema) } }, async (request) => {
    const body = request.body;
    const dispatchDeps = { ...deps, undoWindowMs: deps.config.dispatchUndoMs, logger: request.log };
    return bulkDispatch(dispatchDeps, body.ids ? { ids: body.ids } : { filter: body.filter ?? {} });
  });

  app.post("/api/orders/:id/undo-dispatch", { ...may("orders.dispatch"), schema: { params: IdParams, ...anOrder } }, async (request) =>
    orderOf(deps.db, await undoDispatch(deps, request.params.id)),
  );
};
