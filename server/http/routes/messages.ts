import { z } from "zod";
import {
  ConversationListQuerySchema,
  ConversationSchema,
  CustomerMessageSchema,
  MessageInputSchema,
  MessageListQuerySchema,
  UnreadCountSchema,
} from "../../../contract";
import { listConversationPage, listConversations, listMessagePage, listMessagesMatching, countUnread, listThread, markMessageRead, sendAdminReply } from "../../shop/customers";
import type { Routes } from "../deps";
import { isPaged, sendPage } from "../paging";
import { ERROR_ANSWERS, pagedList } from "../openapi";
import { may } from "../security";

const IdParams = z.object({ id: z.string() });
const UserParams = z.object({ telegramUserId: z.string().trim().min(1).max(64) });

// GET /api/messages pages with limit; one customer's thread (GET /api/messages/user/{id}) never does.
const list = { 200: pagedList(CustomerMessageSchema), ...ERROR_ANSWERS };
const thread = { 200: z.array(CustomerMessageSchema), ...ERROR_ANSWERS };
const conversations = { 200: pagedList(ConversationSchema), ...ERROR_ANSWERS };
const unread = { 200: UnreadCountSchema, ...ERROR_ANSWERS };
const sent = { 201: CustomerMessageSchema, ...ERROR_ANSWERS };
const one = { 200: CustomerMessageSchema, ...ERROR_ANSWERS };

export const messageRoutes: Routes = (app, deps) => {
  app.get("/api/messages", { ...may("messages"), schema: { querystring: MessageListQuerySchema, response: list } }, async (request, reply) =>
    isPaged(request.query)
      ? sendPage(request, reply, await listMessagePage(deps.db, request.query))
      : listMessagesMatching(deps.db, request.query),
  );

  app.get(
    "/api/messages/conversations",
    { ...may("messages"), schema: { querystring: ConversationListQuerySchema, response: conversations } },
    async (request, reply) =>
      isPaged(request.query)
        ? sendPage(request, reply, await listConversationPage(deps.db, request.query))
        : listConversations(deps.db, request.query),
  );

  app.get("/api/messages/user/:telegramUserId", { ...may("messages"), schema: { params: UserParams, response: thread } }, async (request) =>
    listThread(deps.db, request.params.telegramUserId),
  );

  app.get("/api/messages/unread-count", { ...may("messages"), schema: { response: unread } }, async () => ({
    count: await countUnread(deps.db),
  }));

  app.post("/api/messages", { ...may("messages"), schema: { body: MessageInputSchema, response: sent } }, async (request, reply) => {
    const message = await sendAdminReply(deps.db, deps.notifier, request.body, deps.now());
    return reply.code(201).send(message);
  });

  app.put("/api/messages/:id/read", { ...may("messages"), schema: { params: IdParams, response: one } }, async (request) =>
    markMessageRead(deps.db, request.params.id),
  );
};
