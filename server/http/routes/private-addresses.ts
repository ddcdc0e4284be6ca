import { OwnerPassphraseChangeSchema, PrivateAddressesEnableSchema, PrivateAddressesSchema } from "../../../contract";
import { changeOwnerPassphrase, disablePrivateAddresses, enablePrivateAddresses, getPrivateAddresses } from "../../shop/vaults";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

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
};
