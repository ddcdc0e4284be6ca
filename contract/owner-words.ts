import { config, type z } from "zod";
import { LANGUAGE_NAMES, type Language } from "./languages";

// zod's own messages are written for developers ("Too big: expected string to have <=200
// characters"). The owner reads them under a form field and in the server's 400 answers
// (docs/product.md rule 8), so every issue a schema does not word itself gets a sentence that names
// the field by its label and says the limit in words: "Name can be at most 200 characters". A
// schema's own message (`.min(1, "Product name is required")`) still wins: zod asks this map last.

/** Labels of the API's fields where splitting the key's words would not read well. */
const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  telegramUserId: "Customer",
  telegramUsername: "Username",
  telegramUserIds: "Customers",
  minQuantity: "Minimum quantity",
  bulkPricing: "Bulk pricing",
  categoryId: "Category",
  productId: "Product",
  parentId: "Parent category",
  postageOptionId: "Postage option",
  orderId: "Order",
  imageUrl: "Image",
  imageURL: "Image",
  imageUrls: "Images",
  estimatedDays: "Estimated days",
  acceptedCurrencies: "Accepted cryptocurrencies",
  faqContent: "FAQ content",
  nowpaymentsApiKey: "NOWPayments API key",
  nowpaymentsIpnSecret: "IPN secret key",
  webhookUrl: "Webhook URL",
  underpaymentTolerancePercent: "Underpayment tolerance",
  languages: "Languages",
  defaultLanguage: "Default language",
  welcomeMessageTranslations: "Welcome message translations",
  faqContentTranslations: "FAQ translations",
  translations: "Translations",
  textTranslations: "Message translations",
  q: "Search",
  limit: "Page size",
  cursor: "Page",
  from: "From date",
  to: "To date",
};

/** "lowStockThreshold" → "Low stock threshold"; the usual abbreviations stay capitals. */
function splitKey(key: string): string {
  const words = key
    .replace(/[_-]+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .trim()
    .split(/\s+/)
    .map((word) => (/^(id|url|uri|api|ipn|faq|gbp|btc|ltc|xmr|ip)$/i.test(word) ? word.toUpperCase() : word.toLowerCase()));
  const sentence = words.join(" ");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/**
 * The field a path points at, as the owner knows it: its last named key ("bulkPricing.0.price" is
 * "Price"), or "This value" for the whole input. A key the API does not know (a hostile one) is cut
 * short so the sentence stays a sentence.
 */
export function fieldLabel(path: readonly PropertyKey[]): string {
  // A translation's field names its language too (issue 26): "Name (Deutsch)", "Welcome message translations (Deutsch)".
  const at = path.findIndex((part, index) => index > 0 && typeof part === "string" && Object.hasOwn(LANGUAGE_NAMES, part) && /ranslations$/.test(String(path[index - 1])));
  if (at > 0) {
    const inLanguage = ` (${LANGUAGE_NAMES[path[at] as Language]})`;
    return at === path.length - 1 ? `${fieldLabel(path.slice(0, at))}${inLanguage}` : `${fieldLabel(path.slice(at + 1))}${inLanguage}`;
  }
  const key = [...path].reverse().find((part): part is string => typeof part === "string");
  if (key === undefined) return "This value";
  if (Object.hasOwn(FIELD_LABELS, key)) return FIELD_LABELS[key]!;
  const label = splitKey(key.slice(0, 60));
  return label === "" ? "This value" : label;
}

const numberWords = (value: number | bigint) =>
  typeof value === "bigint" ? value.toLocaleString("en-GB") : Number(value).toLocaleString("en-GB", { maximumFractionDigits: 2 });

const plural = (count: number | bigint, one: string, many: string) => `${numberWords(count)} ${Number(count) === 1 ? one : many}`;

const dateWords = (value: number | bigint) => new Date(Number(value)).toISOString().slice(0, 10);

/** What a value of this zod type is called in a sentence ("must be a whole number"). */
const KIND_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "yes or no (true or false)",
  date: "a date",
  array: "a list",
  object: "a group of fields",
  record: "a group of fields",
  map: "a group of fields",
  set: "a list",
  file: "a file",
};

const FORMAT_WORDS: Record<string, string> = {
  email: "an email address",
  url: "a web address such as https://example.com",
  uuid: "a valid id",
  guid: "a valid id",
  cuid: "a valid id",
  cuid2: "a valid id",
  ulid: "a valid id",
  nanoid: "a valid id",
  datetime: "a date and time such as 2026-03-10T12:00:00Z",
  date: "a date such as 2026-03-10",
  time: "a time such as 12:00",
  duration: "a duration",
  ipv4: "an IP address",
  ipv6: "an IP address",
  base64: "base64 text",
  base64url: "base64 text",
  jwt: "a token",
  emoji: "an emoji",
  e164: "a phone number such as +447700900123",
};

/** A few allowed values in quotes, or a count when there are many. */
function choiceWords(values: readonly unknown[]): string {
  const shown = values.map((value) => (typeof value === "string" ? `"${value}"` : String(value)));
  if (shown.length === 1) return `must be ${shown[0]}`;
  if (shown.length <= 8) return `must be one of ${shown.slice(0, -1).join(", ")} or ${shown.at(-1)}`;
  return "is not one of the allowed choices";
}

function tooBig(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooBig>): string {
  const { maximum, inclusive = true } = issue;
  const limit = inclusive ? maximum : typeof maximum === "bigint" ? maximum - 1n : maximum;
  switch (issue.origin) {
    case "string":
      return issue.exact ? `must be exactly ${plural(limit, "character", "characters")}` : `can be at most ${plural(limit, "character", "characters")}`;
    case "array":
    case "set":
      return issue.exact ? `must have exactly ${plural(limit, "entry", "entries")}` : `can have at most ${plural(limit, "entry", "entries")}`;
    case "file":
      return `can be at most ${numberWords(Math.floor(Number(maximum) / 1024 / 1024))} MB`;
    case "date":
      return inclusive ? `must be on or before ${dateWords(maximum)}` : `must be before ${dateWords(maximum)}`;
    default:
      return inclusive ? `can be at most ${numberWords(maximum)}` : `must be less than ${numberWords(maximum)}`;
  }
}

function tooSmall(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall>): string {
  const { minimum, inclusive = true } = issue;
  switch (issue.origin) {
    case "string":
      if (Number(minimum) <= 1 && inclusive) return "is required";
      return issue.exact ? `must be exactly ${plural(minimum, "character", "characters")}` : `must be at least ${plural(minimum, "character", "characters")}`;
    case "array":
    case "set":
      if (Number(minimum) <= 1 && inclusive) return "needs at least one entry";
      return issue.exact ? `must have exactly ${plural(minimum, "entry", "entries")}` : `needs at least ${plural(minimum, "entry", "entries")}`;
    case "file":
      return "must not be empty";
    case "date":
      return inclusive ? `must be on or after ${dateWords(minimum)}` : `must be after ${dateWords(minimum)}`;
    default:
      return inclusive ? `must be at least ${numberWords(minimum)}` : `must be more than ${numberWords(minimum)}`;
  }
}

function invalidType(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidType>): string {
  if (issue.input === undefined || issue.input === null) return "is required";
  const kind = KIND_WORDS[issue.expected] ?? "of another kind";
  return `must be ${kind}`;
}

/** The predicate, without the field: "can be at most 200 characters". */
function describeIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return invalidType(issue);
    case "too_big":
      return tooBig(issue);
    case "too_small":
      return tooSmall(issue);
    case "invalid_format":
      if (issue.format === "regex") return "is not in the right format";
      if (issue.format === "starts_with" && "prefix" in issue) return `must start with "${String(issue.prefix)}"`;
      if (issue.format === "ends_with" && "suffix" in issue) return `must end with "${String(issue.suffix)}"`;
      if (issue.format === "includes" && "includes" in issue) return `must contain "${String(issue.includes)}"`;
      if (issue.format === "lowercase") return "must be in lower case";
      if (issue.format === "uppercase") return "must be in capitals";
      return `must be ${FORMAT_WORDS[issue.format] ?? "in the right format"}`;
    case "not_multiple_of":
      return Number(issue.divisor) === 0.01 ? "can have at most two decimals" : `must be a multiple of ${numberWords(issue.divisor)}`;
    case "unrecognized_keys": {
      const keys = issue.keys.slice(0, 5).map((key) => `"${key.slice(0, 40)}"`);
      // Translations are keyed by language code (issue 26): an unknown key is a language the bot has no texts for.
      if (/ranslations$/.test(String(issue.path?.at(-1) ?? ""))) {
        return `has ${keys.join(", ")}${issue.keys.length > 5 ? " and more" : ""}, which is not a language the bot speaks (${Object.keys(LANGUAGE_NAMES).join(", ")})`;
      }
      return `has ${issue.keys.length === 1 ? "a field" : "fields"} this form does not know: ${keys.join(", ")}${issue.keys.length > 5 ? " and more" : ""}`;
    }
    case "invalid_value":
      if (issue.input === undefined) return "is required";
      return choiceWords(issue.values);
    case "invalid_union": {
      if (issue.input === undefined || issue.input === null) return "is required";
      // Every choice wanted another kind of value: say which kinds ("text or a number").
      const kinds = issue.errors.map((branch) => (branch[0]?.code === "invalid_type" && branch[0].path.length === 0 ? KIND_WORDS[branch[0].expected] : undefined));
      if (kinds.length > 0 && kinds.every(Boolean)) return `must be ${[...new Set(kinds)].join(" or ")}`;
      return "is not valid";
    }
    case "invalid_key":
    case "invalid_element":
    case "custom":
    default:
      return "is not valid";
  }
}

/**
 * The sentence for an issue its schema did not word: the field's label, then what is wrong, e.g.
 * "Name can be at most 200 characters", "Price must be a number", "Accepted cryptocurrencies needs
 * at least one entry".
 */
export function ownerErrorMessage(issue: z.core.$ZodRawIssue): string {
  return `${fieldLabel(issue.path ?? [])} ${describeIssue(issue)}`;
}

/**
 * A schema's own message as the server's 400 answers it: a predicate ("must be a valid id") gets
 * the field's label in front ("Category must be a valid id"), as zod's own issues read; a sentence
 * of its own, capitalised ("Product name is required", "Price is required"), already names the
 * field and is kept word for word. So a schema words its message either way, never "name is required".
 */
export function fieldSentence(path: readonly PropertyKey[], message: string): string {
  return /^[a-z]/.test(message) ? `${fieldLabel(path)} ${message}` : message;
}

// Installed wherever the contract is imported (the server, the dashboard, the bot, tests): zod
// reads the map when an issue is reported, so it holds for every schema whatever its build order.
config({ customError: ownerErrorMessage });
