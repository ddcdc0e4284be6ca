import crypto from "node:crypto";

// The signature of NOWPayments' instant payment notifications (IPN): moved here from
// server/shop/payments/payment-updates.ts (issue 21), which kept it beside what a payment does to its order.

/** Objects with their keys sorted, at every depth (nested objects such as `fee` included). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeysDeep((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** Hex HMAC-SHA512 with the IPN secret over JSON.stringify of the body with its keys sorted. */
export function ipnSignature(body: unknown, secret: string): string {
  return hmacHex(JSON.stringify(sortKeysDeep(body)), secret);
}

function hmacHex(text: string, secret: string): string {
  return crypto.createHmac("sha512", secret).update(text).digest("hex");
}

/** Every character outside ASCII as \uXXXX (lower-case hex; astral characters as their two UTF-16 halves), like PHP's json_encode. */
function escapeNonAscii(json: string): string {
  return json.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The texts NOWPayments may have signed for this body. Its Node sample signs JSON.stringify of the
 * key-sorted body (UTF-8 as is); its PHP sample signs json_encode of it, which writes non-ASCII as
 * \uXXXX and, by default, "/" as "\/". Both are one canonical body, so each spelling is accepted:
 * raw, non-ASCII escaped, and either of those with "/" escaped. "/" and non-ASCII characters only
 * occur inside JSON strings, so replacing them in the whole text changes nothing else.
 * (Numbers that PHP writes differently, such as 1.0e-7, are not covered: the gateway's amounts are
 * plain decimals.)
 */
export function ipnSignedForms(body: unknown): string[] {
  const raw = JSON.stringify(sortKeysDeep(body));
  const escaped = escapeNonAscii(raw);
  const forms = [raw, escaped, raw.replaceAll("/", "\\/"), escaped.replaceAll("/", "\\/")];
  return [...new Set(forms)];
}

/**
 * Whether `signature` is the HMAC of one of the body's canonical forms (ipnSignedForms). Each
 * comparison is constant-time, so the signature cannot be guessed a character at a time; every
 * form is compared, so the time taken does not say which one matched either.
 */
export function verifyIpnSignature(body: unknown, signature: string | undefined, secret: string): boolean {
  if (!signature || !/^[0-9a-f]+$/i.test(signature)) return false;
  const given = Buffer.from(signature, "hex");
  let matched = false;
  for (const form of ipnSignedForms(body)) {
    const expected = Buffer.from(hmacHex(form, secret), "hex");
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}

