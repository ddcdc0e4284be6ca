import { z } from "zod";
import {
  BroadcastCreatedSchema,
  BroadcastInputSchema,
  BroadcastProgressSchema,
  BroadcastReachInputSchema,
  BroadcastReachSchema,
  BroadcastSummarySchema,
  BroadcastTestInputSchema,
  BroadcastTestSentSchema,
  IdParamsSchema,
} from "../../../contract";
import { countBroadcastReach, createBroadcast, getBroadcastProgress, listBroadcasts, ownerChatForTest } from "../../shop/customers";
import { sendBroadcastTest } from "../../telegram/broadcast-sender";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

// The Broadcasts screen (issue 14, item 3): queue a message to an audience, follow its progress.
// The sending runs in the background (telegram/broadcast-sender.ts), started and stopped with the
// server's other background jobs (server/jobs.ts); a route only kicks it. Every broadcast route, its
// list too, needs "customers.manage": writing to every customer is not a support desk's call (contract/team.ts).

export const broadcastRoutes: Routes = (app, deps) => {
  const sender = deps.broadcasts;

  app.post(
    "/api/broadcasts",
    { ...may("customers.manage"), schema: { body: BroadcastInputSchema, response: { 202: BroadcastCreatedSchema, ...ERROR_ANSWERS } } },
    async (request, reply) => {
      const created = await createBroadcast(deps.db, request.body, deps.now());
      sender?.kick();
      return reply.code(202).send(created);
    },
  );

  // Before "Send now" goes ahead (issue 22, item 2): the number it will reach, by the queue's rule.
  app.post(
    "/api/broadcasts/reach",
    { ...may("customers.manage"), schema: { body: BroadcastReachInputSchema, response: { 200: BroadcastReachSchema, ...ERROR_ANSWERS } } },
    async (request) => countBroadcastReach(deps.db, request.body.audience, deps.now()),
  );

  // "Send a test to me": to the owner's linked chat only; 409 when none is linked.
  app.post(
    "/api/broadcasts/test",
    { ...may("customers.manage"), schema: { body: BroadcastTestInputSchema, response: { 200: BroadcastTestSentSchema, ...ERROR_ANSWERS } } },
    async (request) => {
      const owner = await ownerChatForTest(deps.db);
      await sendBroadcastTest(deps, owner.chatId, request.body);
      return { sentTo: owner.chatTitle };
    },
  );

  app.get("/api/broadcasts", { ...may("customers.manage"), schema: { response: { 200: z.array(BroadcastSummarySchema), ...ERROR_ANSWERS } } }, async () =>
    listBroadcasts(deps.db),
  );

  app.get("/api/broadcasts/:id", { ...may("customers.manage"), schema: { params: IdParamsSchema, response: { 200: BroadcastProgressSchema, ...ERROR_ANSWERS } } }, async (request) =>
    getBroadcastProgress(deps.db, request.params.id),
  );
};
