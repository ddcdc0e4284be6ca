import { describe, expect, it } from "vitest";
import { checkAddressField } from "./address";

describe("shipping address fields", () => {
  it("tidies accepted answers", () => {
    expect(checkAddressField("name", "  Jane   Smith ")).toEqual({ value: "Jane Smith" });
    expect(checkAddressField("postcode", "sw1a 1aa")).toEqual({ value: "SW1A 1AA" });
    expect(checkAddressField("street", "12 High Street, London")).toEqual({ value: "12 High Street, London" });
  });

  it("refuses answers that cannot be an address, saying what to send", () => {
    expect(checkAddressField("name", "1")).toHaveProperty("problem", expect.stringMatching(/name/));
    expect(checkAddressField("street", "x")).toHaveProperty("problem", expect.stringMatching(/street address/));
    expect(checkAddressField("postcode", "hello")).toHaveProperty("problem", expect.stringMatching(/postcode/));
    expect(checkAddressField("contact", "a")).toHaveProperty("problem", expect.stringMatching(/Skip/));
  });
});
