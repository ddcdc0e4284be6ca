import { CustomerParamsSchema, ForgetResultSchema, PrivacySettingsSchema } from "../../../contract";
import { forgetCustomer, getPrivacySettings, savePrivacySettings } from "../../shop/privacy";
import type { Routes } from "../deps";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

// Privacy (issue 15): the retention settings, and forgetting a customer for them (the customer can
// do it themself with /forgetme). The rules are in shop/privacy/privacy.ts. The settings are the
// owner's ("privacy"); forgetting one customer is "customers.manage" (contract/team.ts).

export const privacyRoutes: Routes = (app, deps) => {
  app.get("/api/privacy-settings", { ...may("privacy"), schema: { response: { 200: PrivacySettingsSchema, ...ERROR_ANSWERS } } }, () => getPrivacySettings(deps.db));

  app.put("/api/privacy-settings", { ...may("privacy"), schema: { body: PrivacySettingsSchema, response: { 200: PrivacySettingsSchema, ...ERROR_ANSWERS } } }, (request) =>
    savePrivacySettings(deps.db, request.body),
  );

  app.post(
    "/api/customers/:telegramUserId/forget",
    { ...may("customers.manage"), schema: { params: CustomerParamsSchema, response: { 200: ForgetResultSchema, ...ERROR_ANSWERS } } },
    (request) => forgetCustomer(deps.db, request.params.telegramUserId, deps.now(), "owner"),
  );
};
