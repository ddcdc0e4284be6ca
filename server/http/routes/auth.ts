import { AuthStatusSchema, LoginInputSchema, SuccessSchema } from "../../../contract";
import { createDeviceCookies, DEVICE_COOKIE, DEVICE_COOKIE_KEY_PURPOSE, DEVICE_COOKIE_LIFETIME_MS } from "../../auth/device-cookies";
import { createLoginThrottle } from "../../auth/login-throttle";
import { createSession, deleteSession, SESSION_ABSOLUTE_MS } from "../../auth/sessions";
import type { Routes } from "../deps";
import { HttpError } from "../errors";
import { ERROR_ANSWERS } from "../openapi";
import { checkAccountPassword, checkSecondFactor, findAccountForLogin, OWNER_USERNAME, toAccount } from "../../shop/team";
import { PUBLIC, SESSION_COOKIE, signedInSession } from "../security";
import { refusedCode } from "./two-factor";

const done = { 200: SuccessSchema, ...ERROR_ANSWERS };
// Not logged in answers 401 with { authenticated: false } (docs/product.md §7 reads it as null).
const status = { 200: AuthStatusSchema, 401: AuthStatusSchema, ...ERROR_ANSWERS };

export const authRoutes: Routes = (app, deps) => {
  const throttle = createLoginThrottle(deps.db, deps.now);
  const secureCookie = deps.config.publicUrl?.startsWith("https://") ?? false;
  const deviceCookies = createDeviceCookies(deps.secrets.deriveKey(DEVICE_COOKIE_KEY_PURPOSE));

  app.post("/api/auth/login", { ...PUBLIC, schema: { body: LoginInputSchema, response: done } }, async (request, reply) => {
    // request.ip is the socket's address unless TRUST_PROXY names the proxy in front (app.ts).
    // A browser that signed in before is counted by its device cookie instead (docs/SECURITY.md).
    // Counted per account: a device cookie names the login it signed in as (the owner's when none is given).
    const login = request.body.username?.trim().toLowerCase() || OWNER_USERNAME;
    const device = deviceCookies.verify(request.cookies[DEVICE_COOKIE], login, deps.now());
    const verdict = await throttle.begin(request.ip, device?.nonce, login);
    if (!verdict.allowed) {
      const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
      const who =
        verdict.scope === "global" ? "Too many failed logins on this shop" : verdict.scope === "account" ? "Too many failed attempts for this account" : "Too many failed attempts";
      throw new HttpError(429, `${who}. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`, {
        "Retry-After": String(verdict.retryAfterSeconds),
      });
    }
    const account = await findAccountForLogin(deps.db, request.body.username);
    // The audit log names who tried, by the name given (a name that is no account has no id).
    request.auditAccount = { id: account?.id ?? null, username: account?.username ?? login };
    if (!(await checkAccountPassword(account, request.body.password))) {
      // One answer for a wrong name, a wrong password and a disabled account: none tells which.
      throw new HttpError(401, request.body.username ? "Invalid username or password" : "Invalid password");
    }
    // Two-factor (issue 25). The code is looked at only once the password was right, so a wrong
    // password never spends one. The attempt stays counted by the throttle above until a session
    // opens: a 401 `totpRequired` tells whoever sent it that the password is right, so answering it
    // must cost a guess like a wrong password does (else a password list could be tried without
    // limit); and a wrong code costs one too, so codes cannot be guessed faster than passwords. The
    // price is that the owner's two-step sign-in counts one failure, taken back by their next good
    // one (or never counted from a browser with a device cookie beyond its own 5). Codes are also
    // counted per account (shop/team checkSecondFactor, login-throttle.ts SECOND_FACTOR_WINDOW).
    let totpAt: Date | null = null;
    if (account!.totpEnabled) {
      if (!request.body.totp) throw new HttpError(401, "Enter the code from your authenticator app.", {}, { totpRequired: true });
      const check = await checkSecondFactor(deps.db, deps.secrets, account!, request.body.totp, deps.now());
      if (!check.ok) throw refusedCode(check, 401);
      totpAt = deps.now();
    }
    await throttle.succeeded(request.ip, device?.nonce, verdict.trusted, login);
    // A fresh session id at every login; any old cookie is replaced.
    const old = request.cookies[SESSION_COOKIE];
    if (old) await deleteSession(deps.db, old);
    const token = await createSession(deps.db, { accountId: account!.id, userAgent: request.headers["user-agent"], ip: request.ip, totpAt }, deps.now());
    reply.setCookie(SESSION_COOKIE, token, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookie || request.protocol === "https",
      maxAge: SESSION_ABSOLUTE_MS / 1000,
    });
    // Set after the session cookie (tests and scripts take the first Set-Cookie as the session). A new
    // nonce at every sign-in; sent only to /api/auth, never with another site's requests, and kept at
    // logout on purpose: it opens nothing, it only keeps this browser off the shared counters.
    reply.setCookie(DEVICE_COOKIE, deviceCookies.issue(login, deps.now()), {
      path: "/api/auth",
      httpOnly: true,
      sameSite: "strict",
      secure: secureCookie || request.protocol === "https",
      maxAge: DEVICE_COOKIE_LIFETIME_MS / 1000,
    });
    return { success: true as const };
  });

  app.get("/api/auth/status", { ...PUBLIC, schema: { response: status } }, async (request, reply) => {
    reply.header("Cache-Control", "no-store");
    const signedIn = await signedInSession(request, deps);
    if (!signedIn) return reply.code(401).send({ authenticated: false });
    return { authenticated: true, account: toAccount(signedIn.account) };
  });

  app.post("/api/auth/logout", { ...PUBLIC, schema: { response: done } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSession(deps.db, token);
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return { success: true as const };
  });
};
