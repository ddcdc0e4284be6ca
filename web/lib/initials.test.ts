import { describe, expect, it } from "vitest";
import { accountInitials } from "./initials";

// The top bar's avatar (web/components/layout/top-bar.tsx) names the signed-in account by these.

describe("an account's initials", () => {
  it.each([
    ["Owner", "owner", "OW"],
    ["Sue Support", "sue", "SS"],
    ["  jane   o'neil  ", "jane", "JO"],
    ["Zoë Ørsted", "zoe", "ZØ"],
    // An accent typed as its own mark is composed onto its letter, not counted as one.
    ["E\u0301mile Zola", "emile", "ÉZ"],
    ["E\u0301mile", "emile", "ÉM"],
    ["王小明", "wang", "王小"],
    ["😀 Sam", "sam", "SA"],
    // No letter or digit in the name: the username's.
    ["!!!", "packer2", "PA"],
    ["---", "---", "?"],
  ])("%j (%s) is %s", (name, username, initials) => {
    expect(accountInitials({ name, username })).toBe(initials);
  });
});
