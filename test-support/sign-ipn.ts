import crypto from "node:crypto";

// Signs an IPN body the way NOWPayments documents it: the body's keys sorted at every depth,
// serialised, HMAC-SHA512 with the IPN secret, hex, sent in the x-nowpayments-sig header.
// Written apart from the server's verifier (server/gateways/nowpayments/signature.ts) on purpose, so a mistake in one
// is caught by the other rather than repeated.
//
// Two serialisations, as NOWPayments' own samples sign: "node" is JSON.stringify (UTF-8 as is);
// "php" is PHP's json_encode with its default flags: every non-ASCII character as a lower-case
// \uXXXX escape (UTF-16 halves beyond the BMP) and "/" written as "\/".

export type IpnSigningStyle = "node" | "php";

function sortObject(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortObject);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortObject((value as Record<string, unknown>)[key]);
  return sorted;
}

function phpJsonEncode(value: unknown): string {
  let out = "";
  for (const char of JSON.stringify(value)) {
    const code = char.codePointAt(0)!;
    if (char === "/") out += "\\/";
    else if (code < 0x80) out += char;
    else if (code <= 0xffff) out += "\\u" + code.toString(16).padStart(4, "0");
    else {
      const offset = code - 0x10000;
      out += "\\u" + (0xd800 + (offset >> 10)).toString(16) + "\\u" + (0xdc00 + (offset & 0x3ff)).toString(16);
    }
  }
  return out;
}

export function signIpn(body: unknown, secret: string, style: IpnSigningStyle = "node"): string {
  const sorted = sortObject(body);
  const text = style === "php" ? phpJsonEncode(sorted) : JSON.stringify(sorted);
  return crypto.createHmac("sha512", secret).update(text).digest("hex");
}

/** Posts an IPN to the server the way NOWPayments would (signed unless `signature` says otherwise). */
export function postIpn(
  baseUrl: string,
  body: unknown,
  options: { secret: string; signature?: string | null; style?: IpnSigningStyle },
): Promise<Response> {
  const signature = options.signature === undefined ? signIpn(body, options.secret, options.style) : options.signature;
  return fetch(`${baseUrl}/api/payments/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(signature !== null ? { "x-nowpayments-sig": signature } : {}) },
    body: JSON.stringify(body),
  });
}
