import {
  GrantAccountParamsSchema,
  GrantInputSchema,
  MyGrantsSchema,
  MySealKeyChangeSchema,
  MySealKeySchema,
  OwnerPassphraseChangeSchema,
  PrivateAddressesEnableSchema,
  PrivateAddressesSchema,
  StaffAddressAccessListSchema,
  StaffAddressAccessSchema,
  StaffKeySetupSchema,
} from "../../../contract";
import {
  changeOwnerPassphrase,
  disablePrivateAddresses,
  enablePrivateAddresses,
  getMyGrants,
  getMySealKey,
  getPrivateAddresses,
  grantAddressAccess,
  listStaffAddressAccess,
  revokeAddressAccess,
  setMySealKey,
} from "../../shop/vaults";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may, signedInAccount } from "../security";

// Private addresses, the owner-only mode (issue 15, item 2; docs/decisions/0025): the "privacy"
// permission, the owner's alone (contract/team.ts). The key pair is made, wrapped and unwrapped in
// the owner's browser (contract/owner-seal.ts); these routes only keep what the browser made, after
// checking that the public key is a P-256 point.

export const privateAddressRoutes: Routes = (app, deps) => {
  app.get(
    "/api/private-addresses",
    {
      ...may("privacy"),
      schema: {
        summary: "Whether new addresses are sealed to the owner's key, and every key with its wrapped private key (for unlocking in the browser)",
        response: { 200: PrivateAddressesSchema, ...ERROR_ANSWERS },
      },
    },
    async (_request, reply) => {
      reply.header("Cache-Control", "no-store");
      return getPrivateAddresses(deps.db);
    },
  );

  app.post(
    "/api/private-addresses",
    {
      ...may("privacy"),
      schema: {
        summary: "Turn private addresses on with a key pair made in the browser: new addresses are sealed to its public key",
        body: PrivateAddressesEnableSchema,
        response: { 200: PrivateAddressesSchema, ...ERROR_ANSWERS },
      },
    },
    async (request) => enablePrivateAddresses(deps.db, request.body, deps.now()),
  );

  app.put(
    "/api/private-addresses/passphrase",
    {
      ...may("privacy"),
      schema: {
        summary: "A new passphrase: the same key pair, its private key wrapped again in the browser",
        body: OwnerPassphraseChangeSchema,
        response: { 200: PrivateAddressesSchema, ...ERROR_ANSWERS },
      },
    },
    async (request) => changeOwnerPassphrase(deps.db, request.body, deps.now()),
  );

  app.delete(
    "/api/private-addresses",
    {
      ...may("privacy"),
      schema: {
        summary: "Turn private addresses off: new addresses are encrypted with the server's key again; sealed ones stay sealed",
        response: { 200: PrivateAddressesSchema, ...ERROR_ANSWERS },
      },
    },
    async () => disablePrivateAddresses(deps.db, deps.now()),
  );

  // Staff access (issue 25; docs/decisions/0037-sealed-address-grants.md). A staff account that reads
  // addresses keeps its own key here; the owner (these grant routes declare no permission: the
  // owner's alone) gives it the owner's keys, sealed in the owner's browser to that key.
  app.get(
    "/api/private-addresses/my-key",
    {
      ...may("orders.addresses"),
      schema: {
        summary: "The signed-in staff account's own key for sealed addresses, with its wrapped private key (for unlocking in its browser); null before it set one up",
        response: { 200: MySealKeySchema, ...ERROR_ANSWERS },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "no-store");
      return getMySealKey(deps.db, signedInAccount(request).id);
    },
  );

  app.put(
    "/api/private-addresses/my-key",
    {
      ...may("orders.addresses"),
      schema: {
        summary: "Set up (or replace) the signed-in staff account's own key pair, made in its browser; a new key pair removes the grants sealed to the old one",
        body: StaffKeySetupSchema,
        response: { 200: MySealKeyChangeSchema, ...ERROR_ANSWERS },
      },
    },
    async (request) => setMySealKey(deps.db, signedInAccount(request), request.body, deps.now()),
  );

  app.get(
    "/api/private-addresses/my-grants",
    {
      ...may("orders.addresses"),
      schema: {
        summary: "The owner's keys given to the signed-in staff account, each sealed to its own key (only its passphrase opens them)",
        response: { 200: MyGrantsSchema, ...ERROR_ANSWERS },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "no-store");
      return getMyGrants(deps.db, signedInAccount(request).id);
    },
  );

  app.get(
    "/api/private-addresses/grants",
    {
      ...may("privacy"),
      schema: {
        summary: "Staff access to sealed addresses: each account that may read addresses, its key's fingerprint and the owner's keys it was given",
        response: { 200: StaffAddressAccessListSchema, ...ERROR_ANSWERS },
      },
    },
    async () => listStaffAddressAccess(deps.db),
  );

  app.put(
    "/api/private-addresses/grants/:accountId",
    {
      ...may("privacy"),
      schema: {
        summary: "Give a staff account the owner's keys, each sealed in the owner's browser to that account's key (adds or replaces the grants for those keys)",
        params: GrantAccountParamsSchema,
        body: GrantInputSchema,
        response: { 200: StaffAddressAccessSchema, ...ERROR_ANSWERS },
      },
    },
    async (request) => grantAddressAccess(deps.db, request.params.accountId, request.body, deps.now()),
  );

  app.delete(
    "/api/private-addresses/grants/:accountId",
    {
      ...may("privacy"),
      schema: {
        summary: "Revoke a staff account's access to sealed addresses: its grants are deleted (what its browser already opened, it may have kept)",
        params: GrantAccountParamsSchema,
        response: { 200: StaffAddressAccessSchema, ...ERROR_ANSWERS },
      },
    },
    async (request) => revokeAddressAccess(deps.db, request.params.accountId),
  );
};
