import { useSyncExternalStore } from "react";

// "Your shop requires two-factor sign-in" (issue 25): a staff account without two-factor meets 403
// `twoFactorRequired` on every call but its own account's (server/http/security.ts). web/lib/api.ts
// notices it; the signed-in app then takes the person to Your account, whose banner explains why.

let required = false;
const listeners = new Set<() => void>();

function set(value: boolean) {
  if (required === value) return;
  required = value;
  for (const listener of listeners) listener();
}

export const markTwoFactorRequired = () => set(true);
/** Two-factor is on now: the banner goes, and the other screens open again. */
export const clearTwoFactorRequired = () => set(false);

/** True since a call was refused for want of two-factor, until it is turned on. */
export function useTwoFactorRequired(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => required,
  );
}

/** Where Your account lives. */
export const ACCOUNT_PATH = "/account";

/** A typed code as the server reads it (spaces and dashes are fine): only the field's length is limited here. */
export const CODE_MAX_LENGTH = 64;
