import { z } from "zod";
import { AccountSchema } from "./team";

// Signing in to the dashboard (issue 25). The owner may sign in with the password alone, as before
// accounts existed; staff give their username too; `totp` is the authenticator's code (or a recovery
// code) when the account has two-factor on. Without it, the right password answers 401 with
// `totpRequired: true`, so the login page asks for the code.

export const LoginInputSchema = z.object({
  username: z.string().trim().max(64).optional(),
  password: z.string().min(1, "Password is required").max(1024),
  totp: z.string().trim().max(64).optional(),
});
export type LoginInput = z.infer<typeof LoginInputSchema>;
export const AuthStatusSchema = z
  .object({ authenticated: z.boolean(), account: AccountSchema.optional() })
  .meta({ id: "AuthStatus" });
export type AuthStatus = z.infer<typeof AuthStatusSchema>;
/** The 401 of a sign-in whose password was right but whose second factor is missing. */
export const TotpRequiredSchema = z.object({ error: z.string(), totpRequired: z.literal(true) }).meta({ id: "TotpRequired" });
