import {
  RecoveryCodesSchema,
  SuccessSchema,
  TeamSettingsSchema,
  TotpSetupSchema,
  TwoFactorCodeInputSchema,
  TwoFactorStatusSchema,
} from "../../../contract";
import {
  beginTwoFactorSetup,
  checkSecondFactor,
  finishTwoFactorSetup,
  getTeamSettings,
  INVALID_CODE_MESSAGE,
  markSessionVerified,
  saveTeamSettings,
  type SecondFactorCheck,
  turnOffTwoFactor,
  unusedRecoveryCodes,
} from "../../shop/team";
import { conflict } from "../../shop/common";
import type { Routes } from "../deps";
import { HttpError } from "../errors";
import { ERROR_ANSWERS } from "../openapi";
import { may } from "../security";

// Two-factor sign-in (issue 25; docs/SECURITY.md "Two-factor sign-in"): each account sets up and
// turns off its own ("account", every role); the owner decides whether staff must have it. A wrong
// code answers 400, not 401: the dashboard reads a 401 as an ended session and asks to sign in again.

const answers = <T>(success: T) => ({ 200: success, ...ERROR_ANSWERS });

/** A failed check as the answer says it: a wrong code, or too many of them (per account, login-throttle.ts). */
export function refusedCode(check: Exclude<SecondFactorCheck, { ok: true }>, status: 400 | 401): HttpError {
  if (check.reason === "throttled") {
    const minutes = Math.ceil(check.retryAfterSeconds / 60);
    return new HttpError(429, `Too many wrong two-factor codes. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`, {
      "Retry-After": String(check.retryAfterSeconds),
    });
  }
  return new HttpError(status, INVALID_CODE_MESSAGE);
}

export const twoFactorRoutes: Routes = (app, deps) => {
  app.get("/api/auth/totp", { ...may("account"), schema: { response: answers(TwoFactorStatusSchema) } }, async (request, reply) => {
    reply.header("Cache-Control", "no-store");
    const account = request.signedIn!.account;
    return { enabled: account.totpEnabled, recoveryCodesLeft: account.totpEnabled ? await unusedRecoveryCodes(deps.db, account.id) : 0 };
  });

  app.post("/api/auth/totp/setup", { ...may("account"), schema: { response: answers(TotpSetupSchema) } }, async (request, reply) => {
    // The secret is in this answer: no cache may keep it.
    reply.header("Cache-Control", "no-store");
    return beginTwoFactorSetup(deps.db, deps.secrets, request.signedIn!.account.id);
  });

  app.post(
    "/api/auth/totp/verify",
    { ...may("account"), schema: { body: TwoFactorCodeInputSchema, response: answers(RecoveryCodesSchema) } },
    async (request, reply) => {
      reply.header("Cache-Control", "no-store");
      const { session, account } = request.signedIn!;
      // Ends the account's other sessions; this one stays, its code counting as just proved (shop/team).
      const recoveryCodes = await finishTwoFactorSetup(deps.db, deps.secrets, { accountId: account.id, sessionId: session.id }, request.body.code, deps.now());
      return { recoveryCodes };
    },
  );

  app.post(
    "/api/auth/totp/disable",
    { ...may("account"), schema: { body: TwoFactorCodeInputSchema, response: answers(SuccessSchema) } },
    async (request) => {
      const check = await turnOffTwoFactor(deps.db, deps.secrets, request.signedIn!.account, request.body.code, deps.now());
      if (!check.ok) throw refusedCode(check, 400);
      return { success: true as const };
    },
  );

  // Asks nothing and changes nothing: answers 403 `stepUpRequired` unless this session may do a
  // sensitive action now. For the dashboard's downloads, which are plain links: it calls this first,
  // so a stale session is asked for a code on the page rather than saving the 403 as the file.
  app.get("/api/auth/step-up", { config: { permission: "account", stepUp: true }, schema: { response: answers(SuccessSchema) } }, async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
    return { success: true as const };
  });

  // A fresh code for a sensitive action (security.ts requireFreshTwoFactor): the session counts as
  // verified for STEP_UP_WINDOW_MS from now.
  app.post("/api/auth/step-up", { ...may("account"), schema: { body: TwoFactorCodeInputSchema, response: answers(SuccessSchema) } }, async (request) => {
    const { session, account } = request.signedIn!;
    if (!account.totpEnabled) throw conflict("Two-factor sign-in is not on for your account: there is no code to confirm.");
    const check = await checkSecondFactor(deps.db, deps.secrets, account, request.body.code, deps.now());
    if (!check.ok) throw refusedCode(check, 400);
    await markSessionVerified(deps.db, session.tokenHash, deps.now());
    return { success: true as const };
  });

  // The owner's alone (no permission declared): whether staff must turn two-factor on.
  app.get("/api/team-settings", { ...may("staff"), schema: { response: answers(TeamSettingsSchema) } }, async () => getTeamSettings(deps.db));

  app.put("/api/team-settings", { ...may("staff"), schema: { body: TeamSettingsSchema, response: answers(TeamSettingsSchema) } }, async (request) =>
    saveTeamSettings(deps.db, request.body),
  );
};
