import { fromBase64, type OwnerKeySetup } from "../contract/owner-seal";

// What someone holding the passphrase gets from a wrapped key (docs/decisions/0025): the PKCS#8
// private key. Unwrapped here by hand, not by contract/owner-seal.ts, so the tests can look for it
// where it must never be (the server's rows, grants) without trusting the code under test.

export async function unwrapPrivateKeyForTest(key: Pick<OwnerKeySetup, "salt" | "iterations" | "wrappedPrivateKey" | "keyId">, passphrase: string): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(passphrase.normalize("NFC")), "PBKDF2", false, ["deriveKey"]);
  const aes = await crypto.subtle.deriveKey(
    { name: "PBKDF2", hash: "SHA-256", salt: fromBase64(key.salt)!, iterations: key.iterations },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["decrypt"],
  );
  const wrapped = fromBase64(key.wrappedPrivateKey)!;
  const additionalData = new TextEncoder().encode(`owner-key-wrap:v1:${key.keyId}`);
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: wrapped.slice(0, 12), additionalData }, aes, wrapped.slice(12)));
}

/** The ways a secret could be written into a row or a request: base64, base64url and hex, of the whole key and of its 32-byte scalar. */
export function encodingsOfPrivateKey(pkcs8: Uint8Array): string[] {
  // A P-256 PKCS#8 from WebCrypto holds the private scalar as an OCTET STRING of 32 bytes at offset 34.
  if (pkcs8[34] !== 0x04 || pkcs8[35] !== 0x20) throw new Error("not a P-256 PKCS#8 as WebCrypto exports it");
  const out: string[] = [];
  for (const secret of [pkcs8, pkcs8.slice(36, 68)]) {
    const base64 = Buffer.from(secret).toString("base64");
    // A stretch from the middle: found whatever the encoding's alignment at the start.
    for (const encoded of [base64, Buffer.from(secret).toString("base64url"), Buffer.from(secret).toString("hex")]) out.push(encoded.slice(8, 40));
  }
  return out;
}
