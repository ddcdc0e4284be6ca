import { z } from "zod";
import { OrderStatusUpdateSchema } from "../../../contract";
import {
  cleanupExpiredOrders,
  deleteOrder,
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

  app.put("/api/orders/:id", { schema: { params: IdParams, body: OrderStatusUpdateSchema } }, async (request) =>
    updateOrderStatus(deps.db, request.params.id, request.body, deps.now()),
  );

  app.delete("/api/orders/:id", { schema: { params: IdParams } }, async (request) => {
    await deleteOrder(deps.db, request.params.id, deps.now());
    return { success: true };
  });

  app.post("/api/orders/cleanup-expired", async () => ({
    expiredOrderIds: await cleanupExpiredOrders(deps.db, deps.now()),
  }));

  app.post("/api/orders/:id/notify-dispatch", { schema: { params: IdParams } }, async (request) => {
    await notifyDispatch(deps.db, deps.notifier, request.params.id);
    return { success: true };
  });
};
