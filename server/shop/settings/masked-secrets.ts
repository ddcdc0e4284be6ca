import { fieldLabel, looksMasked, maskSecret, SECRET_SETTINGS_FIELDS, SECRET_MASK, type BotSettings, type SecretSettingsField } from "../../../contract";
import { invalid } from "../common";

// Bot Settings are answered with their secrets masked (contract/secret-mask.ts, docs/SECURITY.md):
// the form sends the mask back when the owner did not replace a secret. These turn a save's values
// back into what the owner meant, and mask what is answered.

type Secrets = { [field in SecretSettingsField]: BotSettings[field] };

/**
 * The values a save means. A secret field holding exactly the mask of the stored secret keeps the
 * stored secret. Any other text with a bullet in it is refused (400 on that field): no real token or
 * key holds one, so it is a mask of some other secret (an old screen, or a client guessing), and
 * storing it would silently break the bot or the payments. Anything else replaces the secret as typed;
 * empty (null for the optional keys) clears it, as before.
 */
export function unmaskSecrets<T extends Secrets>(values: T, stored: Secrets | null): T {
  const out = { ...values };
  for (const field of SECRET_SETTINGS_FIELDS) {
    const value = values[field];
    if (!value || !looksMasked(value)) continue;
    const current = stored?.[field];
    if (current && value === maskSecret(current)) {
      (out as Secrets)[field] = current;
      continue;
    }
    throw invalid(`${fieldLabel([field])} cannot be "${SECRET_MASK}…": that stands for the one already saved; type the whole new one to replace it`);
  }
  return out;
}

/** The settings as answered: every secret masked. */
export function maskSecrets<T extends Secrets>(settings: T): T {
  return {
    ...settings,
    botToken: maskSecret(settings.botToken),
    nowpaymentsApiKey: maskSecret(settings.nowpaymentsApiKey),
    nowpaymentsIpnSecret: maskSecret(settings.nowpaymentsIpnSecret),
  };
}
