import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskedHint, maskSecret, SECRET_MASK } from "./secret-mask";

describe("maskSecret", () => {
  it("is eight bullets and the last 4 characters, empty or null when unset", () => {
    expect(SECRET_MASK).toBe("\u2022".repeat(8));
    expect(maskSecret("123456789:AAE-secret-wxyz")).toBe("••••••••wxyz");
    expect(maskSecret("")).toBe("");
    expect(maskSecret(null)).toBeNull();
    expect(maskedHint("••••••••wxyz")).toBe("wxyz");
  });

  it("shows no character of a secret shorter than 12 (4 of them would give most of it away)", () => {
    for (const secret of ["a", "abcd", "abcde", "11-chars-ab"]) expect(maskSecret(secret)).toBe("••••••••");
    expect(maskSecret("12-chars-abc")).toBe("••••••••-abc");
    expect(maskedHint("••••••••")).toBe("");
  });

  it("never shows more than 4 characters, nor more than a third of the secret (generated)", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80, unit: "binary" }), (secret) => {
        const masked = maskSecret(secret);
        expect(masked.startsWith(SECRET_MASK)).toBe(true);
        const shown = maskedHint(masked);
        expect(secret.endsWith(shown)).toBe(true);
        const length = (text: string) => [...text].length;
        expect(length(shown)).toBeLessThanOrEqual(Math.min(4, length(secret) / 3));
        // Never half of a UTF-16 pair.
        expect(shown).not.toMatch(/\p{Cs}/u);
      }),
      { seed: 20 },
    );
  });
});
