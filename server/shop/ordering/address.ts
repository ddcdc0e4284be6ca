// The shipping address a customer types, one field at a time: each answer is tidied and checked,
// or refused with a sentence that says what to send instead.

export type AddressField = "name" | "street" | "postcode" | "contact";

const POSTCODE = /^(?=.*\d)[A-Z0-9][A-Z0-9 -]{1,8}[A-Z0-9]$/i;

export function checkAddressField(stage: AddressField, input: string): { value: string } | { problem: string } {
  const text = input.trim().replace(/\s+/g, " ");
  switch (stage) {
    case "name":
      if (text.length < 2 || text.length > 100 || !/\p{L}/u.test(text)) {
        return { problem: "Please send a name of 2 to 100 characters, for example Jane Smith." };
      }
      return { value: text };
    case "street":
      if (text.length < 5 || text.length > 300) {
        return { problem: "Please send the street address (5 to 300 characters), for example 12 High Street, London." };
      }
      return { value: text };
    case "postcode":
      if (!POSTCODE.test(text)) return { problem: "That doesn't look like a postcode. Please send it again, for example SW1A 1AA." };
      return { value: text.toUpperCase() };
    case "contact":
      if (text.length < 3 || text.length > 100) return { problem: "Please send a contact of 3 to 100 characters, or press Skip." };
      return { value: text };
  }
}
