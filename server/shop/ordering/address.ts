// The shipping address a customer types, one field at a time: each answer is tidied and checked,
// or refused with a sentence that says what to send instead.

import type { CustomerText } from "../common";

export type AddressField = "name" | "street" | "postcode" | "contact";

const POSTCODE = /^(?=.*\d)[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$/i;

/** A refused answer: the shop's sentence, and the same by its key for the bot to say in the customer's language. */
export type AddressProblem = { problem: string; customerText: CustomerText };

const refuse = (problem: string, key: string): AddressProblem => ({ problem, customerText: { key } });

export function checkAddressField(stage: AddressField, input: string): { value: string } | AddressProblem {
  const text = input.trim().replace(/\s+/g, " ");
  switch (stage) {
    case "name":
      if (text.length < 2 || text.length > 100 || !/\p{L}/u.test(text)) {
        return refuse("Please send a name of 2 to 100 characters, for example Jane Smith.", "address-refused-name");
      }
      return { value: text };
    case "street":
      if (text.length < 5 || text.length > 300) {
        return refuse("Please send the street address (5 to 300 characters), for example 12 High Street, London.", "address-refused-street");
      }
      return { value: text };
    case "postcode":
      if (!POSTCODE.test(text)) return refuse("That doesn't look like a postcode. Please send it again, for example SW1A 1AA.", "address-refused-postcode");
      return { value: text.toUpperCase() };
    case "contact":
      if (text.length < 3 || text.length > 100) return refuse("Please send a contact of 3 to 100 characters, or press Skip.", "address-refused-contact");
      return { value: text };
  }
}
