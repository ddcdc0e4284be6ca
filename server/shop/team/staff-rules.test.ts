import { dictionary } from "@zxcvbn-ts/language-common";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PASSWORD_MIN_LENGTH } from "../../../contract/team";
import { describeDevice } from "./devices";
import { checkNewPassword, COMMON_PASSWORD_MESSAGE, isCommonPassword } from "./password-policy";

// The pure rules behind the Staff screen and the session lists (issue 25).

describe("the staff password policy", () => {
  const longCommon = dictionary["passwords-common"].filter((password) => password.length >= PASSWORD_MIN_LENGTH);

  it("refuses every common password long enough to pass the length rule, in any mix of case", () => {
    expect(longCommon.length).toBeGreaterThan(200);
    fc.assert(
      fc.property(fc.constantFrom(...longCommon), fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }), (password, upper) => {
        const spelled = [...password].map((char, i) => (upper[i % 64] ? char.toUpperCase() : char)).join("");
        expect(() => checkNewPassword(spelled, "someone")).toThrow(COMMON_PASSWORD_MESSAGE);
      }),
      { numRuns: 300, seed: 25 },
    );
  });

  it("takes long uncommon passwords, and never calls one common that is not in the list", () => {
    expect(() => checkNewPassword("plum tree in the yard 42", "someone")).not.toThrow();
    expect(isCommonPassword("correct horse battery staple")).toBe(false);
    fc.assert(
      fc.property(fc.string({ minLength: 12, maxLength: 40 }), (password) => {
        expect(isCommonPassword(password)).toBe(longCommon.includes(password.toLowerCase()));
      }),
      { numRuns: 300, seed: 25 },
    );
  });
});

describe("a session's device in words", () => {
  it.each([
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome on Linux"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge on Windows"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15", "Safari on macOS"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1", "Chrome on iPhone"],
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", "Chrome on Android"],
    ["Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Linux"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0", "Opera on Windows"],
    ["curl/8.5.0", "curl"],
    ["", "Unknown device"],
    [null, "Unknown device"],
    ["something else entirely", "Unknown device"],
  ])("%s → %s", (userAgent, words) => {
    expect(describeDevice(userAgent)).toBe(words);
  });

  it("answers short words for any text a browser may send", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (userAgent) => {
        expect(describeDevice(userAgent).length).toBeLessThanOrEqual(40);
      }),
      { numRuns: 500, seed: 25 },
    );
  });
});
