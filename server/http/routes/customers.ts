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
import { accountCan, may } from "../security";
import { isPaged, sendPage } from "../paging";

// The Customers screen (issue 13): the list, a customer's page, and blocking them from the bot; the
// owner's note about a customer (issue 22 item 9). Reading needs "customers.read"; blocking and notes
// need "customers.manage" (contract/team.ts).

const list = { 200: pagedList(CustomerSchema), ...ERROR_ANSWERS };
const detail = { 200: CustomerDetailSchema, ...ERROR_ANSWERS };
const blockState = { 200: CustomerBlockStateSchema, ...ERROR_ANSWERS };
const note = { 200: CustomerNoteSchema, ...ERROR_ANSWERS };

export const customerRoutes: Routes = (app, deps) => {
  // Without "orders.addresses" a search does not look at shipping names and postcodes (order-list.ts SearchScope).
  app.get("/api/customers", { ...may("customers.read"), schema: { querystring: CustomerListQuerySchema, response: list } }, async (request, reply) => {
    const scope = { byAddress: accountCan(request, "orders.addresses") };
    return isPaged(request.query)
      ? sendPage(request, reply, await listCustomerPage(deps.db, request.query, scope))
      : listCustomers(deps.db, request.query, scope);
  });

  app.get("/api/customers/:telegramUserId", { ...may("customers.read"), schema: { params: CustomerParamsSchema, response: detail } }, async (request) =>
    getCustomerDetail(deps.db, request.params.telegramUserId),
  );

  app.post("/api/customers/:telegramUserId/block", { ...may("customers.manage"), schema: { params: CustomerParamsSchema, response: blockState } }, async (request) =>
    blockCustomer(deps.db, request.params.telegramUserId, deps.now()),
  );

  app.post("/api/customers/:telegramUserId/unblock", { ...may("customers.manage"), schema: { params: CustomerParamsSchema, response: blockState } }, async (request) =>
    unblockCustomer(deps.db, request.params.telegramUserId),
  );

  app.get("/api/customers/:telegramUserId/notes", { ...may("customers.read"), schema: { params: CustomerParamsSchema, response: note } }, async (request) =>
    getCustomerNote(deps.db, request.params.telegramUserId),
  );

  app.put(
    "/api/customers/:telegramUserId/notes",
    { ...may("customers.manage"), schema: { params: CustomerParamsSchema, body: CustomerNoteInputSchema, response: note } },
    async (request) => saveCustomerNote(deps.db, request.params.telegramUserId, request.body.note, deps.now()),
  );
};
