import { z } from "zod";
import { CustomerMessageSchema, MessageInputSchema, UnreadCountSchema } from "../../../contract";
import { countUnread, listMessages, listThread, markMessageRead, sendAdminReply } from "../../shop/messages";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";

const IdParams = z.object({ id: z.string() });
const UserParams = z.object({ telegramUserId: z.string().trim().min(1).max(64) });

const list = { 200: z.array(CustomerMessageSchema), ...ERROR_ANSWERS };
const unread = { 200: UnreadCountSchema, ...ERROR_ANSWERS };
const sent = { 201: CustomerMessageSchema, ...ERROR_ANSWERS };
const one = { 200: CustomerMessageSchema, ...ERROR_ANSWERS };

export const messageRoutes: Routes = (app, deps) => {
  app.get("/api/messages", { schema: { response: list } }, async () => listMessages(deps.db));

  app.get("/api/messages/user/:telegramUserId", { schema: { params: UserParams, response: list } }, async (request) =>
    listThread(deps.db, request.params.telegramUserId),
  );

  app.get("/api/messages/unread-count", { schema: { response: unread } }, async () => ({
    count: await countUnread(deps.db),
  }));

  app.post("/api/messages", { schema: { body: MessageInputSchema, response: sent } }, async (request, reply) => {
    const message = await sendAdminReply(deps.db, deps.notifier, request.body, deps.now());
    return reply.code(201).send(message);
  });

  app.put("/api/messages/:id/read", { schema: { params: IdParams, response: one } }, async (request) =>
    markMessageRead(deps.db, request.params.id),
  );
};
