import crypto from "node:crypto";

// Signs an IPN body the way NOWPayments documents it: the body's keys sorted at every depth,
// JSON.stringify'd, HMAC-SHA512 with the IPN secret, hex, sent in the x-nowpayments-sig header.
// Written apart from the server's verifier (payments/ipn.ts) on purpose, so a mistake in one
// is caught by the other rather than repeated.

function sortObject(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortObject);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortObject((value as Record<string, unknown>)[key]);
  return sorted;
}

export function signIpn(body: unknown, secret: string): string {
  const hmac = crypto.createHmac("sha512", secret);
  hmac.update(JSON.stringify(sortObject(body)));
  return hmac.digest("hex");
}

/** Posts an IPN to the server the way NOWPayments would (signed unless `signature` says otherwise). */
export function postIpn(
  baseUrl: string,
  body: unknown,
  options: { secret: string; signature?: string | null },
): Promise<Response> {
  const signature = options.signature === undefined ? signIpn(body, options.secret) : options.signature;
  return fetch(`${baseUrl}/api/payments/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(signature !== null ? { "x-nowpayments-sig": signature } : {}) },
    body: JSON.stringify(body),
  });
}
