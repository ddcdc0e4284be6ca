import {
  CustomerBlockStateSchema,
  CustomerDetailSchema,
  CustomerListQuerySchema,
  CustomerNoteInputSchema,
  CustomerNoteSchema,
  CustomerParamsSchema,
  CustomerSchema,
} from "../../../contract";
import {
  blockCustomer,
  getCustomerDetail,
  getCustomerNote,
  listCustomerPage,
  listCustomers,
  saveCustomerNote,
  unblockCustomer,
} from "../../shop/customers";
import type { Routes } from "../deps";
import { ERROR_ANSWERS, pagedList } from "../openapi";
import { isPaged, sendPage } from "../paging";

// The Customers screen (issue 13): the list, a customer's page, and blocking them from the bot; the
// owner's note about a customer (issue 22 item 9), admin only like every route that declares no access.

const list = { 200: pagedList(CustomerSchema), ...ERROR_ANSWERS };
const detail = { 200: CustomerDetailSchema, ...ERROR_ANSWERS };
const blockState = { 200: CustomerBlockStateSchema, ...ERROR_ANSWERS };
const note = { 200: CustomerNoteSchema, ...ERROR_ANSWERS };

export const customerRoutes: Routes = (app, deps) => {
  app.get("/api/customers", { schema: { querystring: CustomerListQuerySchema, response: list } }, async (request, reply) =>
    isPaged(request.query)
      ? sendPage(request, reply, await listCustomerPage(deps.db, request.query))
      : listCustomers(deps.db, request.query),
  );

  app.get("/api/customers/:telegramUserId", { schema: { params: CustomerParamsSchema, response: detail } }, async (request) =>
    getCustomerDetail(deps.db, request.params.telegramUserId),
  );

  app.post("/api/customers/:telegramUserId/block", { schema: { params: CustomerParamsSchema, response: blockState } }, async (request) =>
    blockCustomer(deps.db, request.params.telegramUserId, deps.now()),
  );

  app.post("/api/customers/:telegramUserId/unblock", { schema: { params: CustomerParamsSchema, response: blockState } }, async (request) =>
    unblockCustomer(deps.db, request.params.telegramUserId),
  );

  app.get("/api/customers/:telegramUserId/notes", { schema: { params: CustomerParamsSchema, response: note } }, async (request) =>
    getCustomerNote(deps.db, request.params.telegramUserId),
  );

  app.put(
    "/api/customers/:telegramUserId/notes",
    { schema: { params: CustomerParamsSchema, body: CustomerNoteInputSchema, response: note } },
    async (request) => saveCustomerNote(deps.db, request.params.telegramUserId, request.body.note, deps.now()),
  );
};
