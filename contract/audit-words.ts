import { fieldLabel } from "./owner-words";

// The Activity log as the owner reads it (issue 22 item 7). Entries written since then carry a
// sentence (server/shop/common/audit-words.ts); older ones carry the write's body in short
// (`name: "Sencha", price: "4.99"`) and whole ids. Both read as words here: fields by their label,
// prices in pounds, ids as the 8 characters the screens show (docs/product.md §1).

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** A whole id in a sentence becomes "#1234abcd", as orders are shown everywhere. */
export function shortenIds(text: string): string {
  return text.replace(UUID, (id) => `#${id.slice(0, 8)}`);
}

/** An old entry's summary: `key: <JSON>` pairs joined by ", ". */
const LEGACY_PAIRS = /^[A-Za-z_][A-Za-z0-9_]*: /;
const KEY = /^([A-Za-z_][A-Za-z0-9_]*): /;

/** Where a JSON value that starts at `start` ends: strings and nesting followed, a cut-short value runs to the end. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "[" || char === "{") depth++;
    else if (char === "]" || char === "}") depth--;
    else if (depth === 0 && text.startsWith(", ", index) && KEY.test(text.slice(index + 2))) return index;
    if (!inString && depth === 0 && index > start && (char === '"' || char === "]" || char === "}") && text.startsWith(", ", index + 1)) return index + 1;
  }
  return text.length;
}

/** An old summary's pairs, reading each value as JSON so a ", " inside a text does not split it. */
function legacyPairs(summary: string): [key: string, raw: string][] {
  const pairs: [string, string][] = [];
  let rest = summary;
  while (rest) {
    const key = KEY.exec(rest);
    if (!key) break;
    const end = valueEnd(rest, key[0].length);
    pairs.push([key[1]!, rest.slice(key[0].length, end)]);
    rest = rest.slice(end).replace(/^, /, "");
  }
  return pairs;
}

/** Old summaries' keys whose label reads better otherwise here. */
const LEGACY_LABELS: Record<string, string> = { isActive: "Status" };
const HIDDEN = "[hidden]";

function legacyValueWords(key: string, raw: string): string {
  if (raw === HIDDEN) return "changed";
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Cut short when it was stored ("…"): shown as it is.
    return raw;
  }
  if (/price|amount|total/i.test(key) && (typeof value === "string" || typeof value === "number") && Number.isFinite(Number(value))) {
    return `£${Number(value).toFixed(2)}`;
  }
  if (key === "isActive" && typeof value === "boolean") return value ? "active" : "inactive";
  if (/Percent$/.test(key) && typeof value === "number") return `${value}%`;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item === "string" || typeof item === "number")) return value.join(", ");
    return `${value.length} ${value.length === 1 ? "entry" : "entries"}`;
  }
  if (value && typeof value === "object") return "set";
  if (typeof value === "string") return `"${value}"`;
  return String(value);
}

/**
 * What an entry's summary says, in words: a sentence as it is, an old `key: value` summary as
 * "Name "Sencha", price £4.99", whole ids shortened either way.
 */
export function readableAuditSummary(summary: string): string {
  if (!LEGACY_PAIRS.test(summary)) return shortenIds(summary);
  const parts = legacyPairs(summary).map(([key, raw]) => {
    const label = LEGACY_LABELS[key] ?? fieldLabel([key]);
    const words = legacyValueWords(key, raw);
    // "Price" reads "price" within the sentence; "FAQ content" and "IPN secret key" keep their capitals.
    const inSentence = /^[A-Z][a-z]/.test(label) ? `${label.charAt(0).toLowerCase()}${label.slice(1)}` : label;
    return `${inSentence} ${words}`;
  });
  const sentence = shortenIds(parts.join(", "));
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
