import { z } from "zod";
import { MessageInputSchema } from "../../../contract";
import { countUnread, listMessages, listThread, markMessageRead, sendAdminReply } from "../../shop/messages";
import type { Routes } from "../deps";

const IdParams = z.object({ id: z.string() });
const UserParams = z.object({ telegramUserId: z.string().trim().min(1).max(64) });

export const messageRoutes: Routes = (app, deps) => {
  app.get("/api/messages", async () => listMessages(deps.db));

  app.get("/api/messages/user/:telegramUserId", { schema: { params: UserParams } }, async (request) =>
    listThread(deps.db, request.params.telegramUserId),
  );

  app.get("/api/messages/unread-count", async () => ({ count: await countUnread(deps.db) }));

  app.post("/api/messages", { schema: { body: MessageInputSchema } }, async (request, reply) => {
    const message = await sendAdminReply(deps.db, deps.notifier, request.body, deps.now());
    return reply.code(201).send(message);
  });

  app.put("/api/messages/:id/read", { schema: { params: IdParams } }, async (request) =>
    markMessageRead(deps.db, request.params.id),
  );
};
