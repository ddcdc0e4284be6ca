// Bot Settings' secrets are answered masked, never in clear (docs/SECURITY.md, "What is logged"):
// GET, POST and PUT /api/bot-settings give "••••••••" plus the last 4 characters of the bot token,
// the NOWPayments API key and the IPN secret. A save that sends that mask back keeps the stored secret.
// Shared by the server (which masks, and reads the mask back) and the web form (which shows "set (…wxyz)").
// Depends on nothing (contract/index.ts re-exports this file).

/** The secret fields of Bot Settings, masked in every answer. */
export const SECRET_SETTINGS_FIELDS = ["botToken", "nowpaymentsApiKey", "nowpaymentsIpnSecret"] as const;
export type SecretSettingsField = (typeof SECRET_SETTINGS_FIELDS)[number];

/** Eight bullets (U+2022): what stands for a secret's hidden characters. */
export const SECRET_MASK = "••••••••";

/**
 * A secret shorter than this is masked without its last 4 characters: 4 of a 5-character secret
 * would give most of it away. From 12 characters on, the 4 shown are at most a third of it. Real
 * tokens and keys are far longer (a Telegram token has about 46, NOWPayments keys about 30).
 */
export const SECRET_MIN_LENGTH_FOR_HINT = 12;

/** The masked form of a secret: "" when unset (empty), null when unset (null). */
export function maskSecret(secret: string): string;
export function maskSecret(secret: string | null): string | null;
export function maskSecret(secret: string | null): string | null {
  if (secret === null || secret === "") return secret;
  // By code point: cutting between the halves of a UTF-16 pair would answer a lone surrogate.
  const characters = [...secret];
  return characters.length >= SECRET_MIN_LENGTH_FOR_HINT ? SECRET_MASK + characters.slice(-4).join("") : SECRET_MASK;
}

/** Whether a text is, or pretends to be, a masked secret: no real token or key holds a bullet. */
export function looksMasked(value: string): boolean {
  return value.includes("•");
}

/** The characters a masked secret shows ("wxyz"), or "" when it shows none. */
export function maskedHint(masked: string): string {
  return masked.startsWith(SECRET_MASK) ? masked.slice(SECRET_MASK.length) : "";
}
