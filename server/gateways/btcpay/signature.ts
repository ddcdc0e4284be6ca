import crypto from "node:crypto";

// BTCPay Server signs each webhook delivery: the BTCPay-Sig header is "sha256=" and the hex
// HMAC-SHA256 of the raw request body, keyed with the webhook's secret. The bytes are what is signed,
// so the check runs on the body exactly as it arrived, before anything parses it.

export const BTCPAY_SIGNATURE_HEADER = "btcpay-sig";

export function btcpaySignature(rawBody: string, secret: string): string {
  return "sha256=" + crypto.createHmac("sha256", secret).update(rawBody, "utf8").digest("hex");
}

/** Whether `header` is the signature of `rawBody` with `secret`, compared in constant time. */
export function verifyBtcpaySignature(rawBody: string, header: string | undefined, secret: string): boolean {
  if (typeof header !== "string") return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1]!, "hex");
  const expected = crypto.createHmac("sha256", secret).update(rawBody, "utf8").digest();
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
