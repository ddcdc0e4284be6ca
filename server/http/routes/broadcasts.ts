import { z } from "zod";
import {
  BroadcastCreatedSchema,
  BroadcastInputSchema,
  BroadcastProgressSchema,
  BroadcastSummarySchema,
  IdParamsSchema,
} from "../../../contract";
import { createBroadcast, getBroadcastProgress, listBroadcasts } from "../../shop/customers";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";

// The Broadcasts screen (issue 14, item 3): queue a message to an audience, follow its progress.
// The sending runs in the background (telegram/broadcast-sender.ts), started and stopped with the
// server's other background jobs (server/jobs.ts); a route only kicks it.

export const broadcastRoutes: Routes = (app, deps) => {
  const sender = deps.broadcasts;

  app.post(
    "/api/broadcasts",
    { schema: { body: BroadcastInputSchema, response: { 202: BroadcastCreatedSchema, ...ERROR_ANSWERS } } },
    async (request, reply) => {
      const created = await createBroadcast(deps.db, request.body, deps.now());
      sender?.kick();
      return reply.code(202).send(created);
    },
  );

  app.get("/api/broadcasts", { schema: { response: { 200: z.array(BroadcastSummarySchema), ...ERROR_ANSWERS } } }, async () =>
    listBroadcasts(deps.db),
  );

  app.get("/api/broadcasts/:id", { schema: { params: IdParamsSchema, response: { 200: BroadcastProgressSchema, ...ERROR_ANSWERS } } }, async (request) =>
    getBroadcastProgress(deps.db, request.params.id),
  );
};
