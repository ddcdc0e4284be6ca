import { dictionary } from "@zxcvbn-ts/language-common";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../../contract/team";
import { invalid } from "../common";

// What a staff password must be (issue 25; OWASP ASVS 2.1.1 and 2.1.7): long enough, not one of the
// passwords attackers try first, and not the account's own username. No rules about character
// classes: length does more, and such rules push people to "Password1!".
//
// The common passwords are zxcvbn-ts's list (about 49,000, most frequent first, all lower case),
// kept once in memory as a Set of those long enough to pass the length rule at all: the rest can
// never be the reason a password is refused. Compared lower-cased, so "LeaveMeAlone" is as common as
// "leavemealone".

export const COMMON_PASSWORD_MESSAGE = "This password is too common: choose another.";

let commonPasswords: Set<string> | null = null;

function commonPasswordSet(): Set<string> {
  commonPasswords ??= new Set(dictionary["passwords-common"].filter((password) => password.length >= PASSWORD_MIN_LENGTH));
  return commonPasswords;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswordSet().has(password.toLowerCase());
}

/** Refuses (400, a sentence the person can act on) a password the policy does not take for `username`. */
export function checkNewPassword(password: string, username: string): void {
  // Counted in characters as a person sees them, not UTF-16 units: "🔑" is one.
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) throw invalid(`Password must be at least ${PASSWORD_MIN_LENGTH} characters.`);
  if (password.length > PASSWORD_MAX_LENGTH) throw invalid(`Password can be at most ${PASSWORD_MAX_LENGTH} characters.`);
  if (password.trim().toLowerCase() === username.toLowerCase()) throw invalid("Password must not be your username.");
  if (isCommonPassword(password)) throw invalid(COMMON_PASSWORD_MESSAGE);
  if (new Set(password).size === 1) throw invalid("Password must not be one character repeated.");
}
