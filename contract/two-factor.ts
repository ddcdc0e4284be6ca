import { z } from "zod";

// Two-factor sign-in (issue 25): an authenticator app's 6-digit codes (TOTP, RFC 6238) and ten
// one-time recovery codes; a fresh code for sensitive actions (step-up); the owner may require it of
// every staff account. The routes are in server/http/routes/two-factor.ts.

/** What the account page shows: whether two-factor is on, and how many recovery codes are left unused. */
export const TwoFactorStatusSchema = z
  .object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int().min(0) })
  .meta({ id: "TwoFactorStatus" });
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

/** The start of the setup: the secret to type into the app, and the same as a link for a QR code. */
export const TotpSetupSchema = z
  .object({
    secret: z.string().meta({ description: "Base32, as authenticator apps take it when typed" }),
    otpauthUrl: z.string().meta({ description: "otpauth://totp/... (the QR code's content)" }),
  })
  .meta({ id: "TotpSetup" });
export type TotpSetup = z.infer<typeof TotpSetupSchema>;

/** A code from the app ("123 456" spelled any way), or a recovery code ("k7dx-9m2p-q4hz"). */
export const TwoFactorCodeInputSchema = z.object({
  code: z.string().trim().min(1, "Code is required").max(64),
});
export type TwoFactorCodeInput = z.infer<typeof TwoFactorCodeInputSchema>;

/** Answered once, when two-factor is turned on: only their hashes are kept. */
export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) }).meta({ id: "RecoveryCodes" });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** The team's rules, the owner's to set. */
export const TeamSettingsSchema = z
  .object({ requireTwoFactor: z.boolean().meta({ description: "Staff must turn two-factor on before they can do anything else" }) })
  .meta({ id: "TeamSettings" });
export type TeamSettings = z.infer<typeof TeamSettingsSchema>;
