import { CustomerParamsSchema, ForgetResultSchema, PrivacySettingsSchema } from "../../../contract";
import { forgetCustomer, getPrivacySettings, savePrivacySettings } from "../../shop/privacy";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";

// Privacy (issue 15): the retention settings, and forgetting a customer for them (the customer can
// do it themself with /forgetme). The rules are in shop/privacy/privacy.ts.

export const privacyRoutes: Routes = (app, deps) => {
  app.get("/api/privacy-settings", { schema: { response: { 200: PrivacySettingsSchema, ...ERROR_ANSWERS } } }, () => getPrivacySettings(deps.db));

  app.put("/api/privacy-settings", { schema: { body: PrivacySettingsSchema, response: { 200: PrivacySettingsSchema, ...ERROR_ANSWERS } } }, (request) =>
    savePrivacySettings(deps.db, request.body),
  );

  app.post(
    "/api/customers/:telegramUserId/forget",
    { schema: { params: CustomerParamsSchema, response: { 200: ForgetResultSchema, ...ERROR_ANSWERS } } },
    (request) => forgetCustomer(deps.db, request.params.telegramUserId, deps.now(), "owner"),
  );
};
