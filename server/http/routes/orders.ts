import { z } from "zod";
import { OrderStatusUpdateSchema } from "../../../contract";
import {
  acceptPayment,
  cancelOrder,
  cleanupExpiredOrders,
  deleteOrder,
  getOrderEvents,
  getOrderItems,
  listOrders,
  notifyDispatch,
  updateOrderStatus,
} from "../../shop/orders";
import type { Routes } from "../deps";

const IdParams = z.object({ id: z.string() });

export const orderRoutes: Routes = (app, deps) => {
  app.get("/api/orders", async () => listOrders(deps.db));

  app.get("/api/orders/:id/items", { schema: { params: IdParams } }, async (request) =>
    getOrderItems(deps.db, request.params.id),
  );

  app.get("/api/orders/:id/events", { schema: { params: IdParams } }, async (request) =>
    getOrderEvents(deps.db, request.params.id),
  );

  app.put("/api/orders/:id", { schema: { params: IdParams, body: OrderStatusUpdateSchema } }, async (request) =>
    updateOrderStatus(deps.db, request.params.id, request.body, deps.now()),
  );

  app.delete("/api/orders/:id", { schema: { params: IdParams } }, async (request) => {
    await deleteOrder(deps.db, request.params.id, deps.now());
    return { success: true };
  });

  // The owner settles a pending order's money (DESIGN decision 4, docs/decisions/0006).
  app.post("/api/orders/:id/accept-payment", { schema: { params: IdParams } }, async (request) =>
    acceptPayment({ ...deps, logger: request.log }, request.params.id),
  );

  app.post("/api/orders/:id/cancel", { schema: { params: IdParams } }, async (request) =>
    cancelOrder({ ...deps, logger: request.log }, request.params.id),
  );

  app.post("/api/orders/cleanup-expired", async (request) => {
    // The customers are told in the background: the owner's answer does not wait for Telegram.
    const { expiredOrderIds } = await cleanupExpiredOrders({ ...deps, logger: request.log });
    return { expiredOrderIds };
  });

  app.post("/api/orders/:id/notify-dispatch", { schema: { params: IdParams } }, async (request) => {
    await notifyDispatch(deps.db, deps.notifier, request.params.id);
    return { success: true };
  });
};
