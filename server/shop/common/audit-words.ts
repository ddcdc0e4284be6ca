// The Activity log's summaries in the owner's words (issue 22 item 7): names rather than ids, and
// what a change did as before → after: `Product "Acceptance Tee": price £10.00 → £8.00`,
// `Broadcast "Summer sale" to all customers`. The HTTP layer hands over what it knows of a write
// (server/http/audit.ts); entries written before these words keep their old summary, which the
// dashboard reads aloud itself (contract/audit-words.ts).

/** A catalogue row as the database or the API holds it: only the fields the log speaks of are read. */
export type CatalogueSnapshot = Record<string, unknown>;

export type CatalogueSubject = "product" | "category" | "postage";

const SUBJECT_WORDS: Record<CatalogueSubject, string> = { product: "Product", category: "Category", postage: "Postage option" };

/** The fields a change lists, in this order, with what they are called. */
const FIELD_WORDS: [field: string, words: string][] = [
  ["name", "name"],
  ["price", "price"],
  ["stock", "stock"],
  ["isActive", "status"],
  ["lowStockThreshold", "low stock alert"],
  ["estimatedDays", "estimated days"],
  ["categoryId", "category"],
  ["parentId", "parent category"],
  ["description", "description"],
  ["icon", "icon"],
  ["imageUrl", "image"],
  // The photo list (issue 23): a reorder or a photo added after the first changes only this.
  ["imageUrls", "photos"],
  ["bulkPricing", "bulk pricing"],
];

/** Fields whose values are short enough to show; the others say only that they changed. */
const SHOWN = new Set(["name", "price", "stock", "isActive", "lowStockThreshold", "estimatedDays"]);

const NAME_MAX = 60;

/** A name in quotes, cut short, on one line. */
export function quotedName(value: unknown): string {
  const text = String(value ?? "").replace(/\s+/g, " ").trim();
  return `"${text.length > NAME_MAX ? `${text.slice(0, NAME_MAX - 1)}…` : text}"`;
}

function valueWords(field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "none";
  switch (field) {
    case "name":
      return quotedName(value);
    case "price":
      return Number.isFinite(Number(value)) ? `£${Number(value).toFixed(2)}` : String(value);
    case "isActive":
      return value ? "active" : "inactive";
    case "estimatedDays":
      return `${String(value)} ${Number(value) === 1 ? "day" : "days"}`;
    default:
      return String(value);
  }
}

/** Two stored values mean the same ("10.00" and 10, null and ""): a number, or JSON, compared. */
function same(field: string, before: unknown, after: unknown): boolean {
  const blank = (value: unknown) => value === null || value === undefined || value === "";
  if (blank(before) && blank(after)) return true;
  if (field === "price" && Number.isFinite(Number(before)) && Number.isFinite(Number(after))) return Number(before) === Number(after);
  return JSON.stringify(before) === JSON.stringify(after);
}

/**
 * A catalogue write in words. Created (no `before`): its name and what it was given (`Product
 * "Tee": price £10.00, stock 5`). Changed: each changed field as before → after. Deleted (no
 * `after`): its name. Without a name to go on (the row was already gone): the subject alone.
 */
export function describeCatalogueWrite(subject: CatalogueSubject, before: CatalogueSnapshot | null, after: CatalogueSnapshot | null): string {
  const name = after?.name ?? before?.name;
  const head = name === undefined || name === null ? SUBJECT_WORDS[subject] : `${SUBJECT_WORDS[subject]} ${quotedName(name)}`;
  if (!after) return head;
  if (!before) {
    const given = FIELD_WORDS.filter(([field]) => field !== "name" && SHOWN.has(field) && field in after && after[field] != null).map(
      ([field, words]) => `${words} ${valueWords(field, after[field])}`,
    );
    return given.length > 0 ? `${head}: ${given.join(", ")}` : head;
  }
  const changes = FIELD_WORDS.filter(([field]) => field in after && !same(field, before[field], after[field])).map(([field, words]) =>
    SHOWN.has(field) ? `${words} ${valueWords(field, before[field])} → ${valueWords(field, after[field])}` : `${words} changed`,
  );
  return `${head}: ${changes.length > 0 ? changes.join(", ") : "nothing changed"}`;
}

export type BroadcastAudienceWords = { kind: string; days?: number; productId?: string };

/** `Broadcast "Summer sale" to all customers`: the message's start and who it goes to. */
export function describeBroadcast(text: unknown, audience: BroadcastAudienceWords | null, productName?: string | null): string {
  const who = !audience
    ? "customers"
    : audience.kind === "all"
      ? "all customers"
      : audience.kind === "never-ordered"
        ? "customers who have not ordered yet"
        : audience.kind === "recent"
          ? `customers with an order in the last ${audience.days ?? "?"} ${audience.days === 1 ? "day" : "days"}`
          : audience.kind === "product"
            ? `customers who bought ${productName ? quotedName(productName) : "a product"}`
            : "customers";
  return `Broadcast ${quotedName(text)} to ${who}`;
}

/** A coupon as the database or the API holds it: only the fields the log speaks of are read. */
export type CouponSnapshot = Record<string, unknown>;

const COUPON_FIELDS: [field: string, words: string][] = [
  ["code", "code"],
  ["value", "discount"],
  ["minSubtotal", "minimum subtotal"],
  ["maxDiscount", "maximum discount"],
  ["startsAt", "start"],
  ["endsAt", "end"],
  ["usageLimit", "usage limit"],
  ["perCustomerLimit", "uses per customer"],
  ["firstOrderOnly", "first order only"],
  ["productIds", "products"],
  ["categoryIds", "categories"],
  ["isActive", "status"],
];

function couponValueWords(field: string, value: unknown, coupon: CouponSnapshot): string {
  if (value === null || value === undefined || value === "") return "none";
  const pounds = (amount: unknown) => (Number.isFinite(Number(amount)) ? `£${Number(amount).toFixed(2)}` : String(amount));
  switch (field) {
    case "value":
      return coupon.kind === "percent" ? `${Number(value)}% off` : `${pounds(value)} off`;
    case "minSubtotal":
    case "maxDiscount":
      return pounds(value);
    case "startsAt":
    case "endsAt":
      return new Date(String(value)).toISOString().slice(0, 16).replace("T", " ");
    case "isActive":
      return value ? "on" : "off";
    case "firstOrderOnly":
      return value ? "yes" : "no";
    case "productIds":
    case "categoryIds":
      return Array.isArray(value) ? (value.length === 0 ? "all" : `${value.length} chosen`) : "changed";
    default:
      return String(value);
  }
}

/**
 * A coupon write in the owner's words (issue 23): `Coupon SUMMER10: 10% off, usage limit 5` when
 * created, `Coupon SUMMER10: usage limit 5 → 10` when changed, `Coupon SUMMER10` when deleted.
 */
export function describeCouponWrite(before: CouponSnapshot | null, after: CouponSnapshot | null): string {
  const code = after?.code ?? before?.code;
  const head = typeof code === "string" ? `Coupon ${code}` : "Coupon";
  if (!after) return head;
  if (!before) {
    const given = COUPON_FIELDS.filter(([field]) => field !== "code" && field !== "isActive" && after[field] != null && !(Array.isArray(after[field]) && (after[field] as unknown[]).length === 0) && after[field] !== false).map(
      ([field, words]) => (field === "value" ? couponValueWords(field, after[field], after) : `${words} ${couponValueWords(field, after[field], after)}`),
    );
    return given.length > 0 ? `${head}: ${given.join(", ")}` : head;
  }
  const words = (field: string, snapshot: CouponSnapshot) => couponValueWords(field, snapshot[field], snapshot);
  const changes = COUPON_FIELDS.filter(([field]) => field in after && words(field, before) !== words(field, after)).map(
    ([field, label]) => `${label} ${words(field, before)} → ${words(field, after)}`,
  );
  if (before.kind !== after.kind && !changes.some((change) => change.startsWith("discount"))) {
    changes.push(`discount ${words("value", before)} → ${words("value", after)}`);
  }
  return `${head}: ${changes.length > 0 ? changes.join(", ") : "nothing changed"}`;
}
