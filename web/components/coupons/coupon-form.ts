import { z } from "zod";
import { type Coupon, COUPON_KINDS, type CouponInput, CouponInputSchema } from "../../../contract";

// The coupon dialog's form (issue 23): what the owner types, as text, turned into the API's input and
// checked by the contract's own schema (contract/coupons.ts), so the dialog and the server refuse the
// same things with the same sentences.

export const CouponFormFields = z.object({
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  value: z.string(),
  minSubtotal: z.string(),
  maxDiscount: z.string(),
  /** As a datetime-local input holds it: "2026-12-01T09:30", the owner's own clock; "" for none. */
  startsAt: z.string(),
  endsAt: z.string(),
  usageLimit: z.string(),
  perCustomerLimit: z.string(),
  firstOrderOnly: z.boolean(),
  productIds: z.array(z.string()),
  categoryIds: z.array(z.string()),
  isActive: z.boolean(),
});
export type CouponForm = z.infer<typeof CouponFormFields>;
export type CouponFormField = keyof CouponForm;

export const NEW_COUPON: CouponForm = {
  code: "",
  kind: "percent",
  value: "",
  minSubtotal: "",
  maxDiscount: "",
  startsAt: "",
  endsAt: "",
  usageLimit: "",
  perCustomerLimit: "",
  firstOrderOnly: false,
  productIds: [],
  categoryIds: [],
  isActive: true,
};

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO instant as a datetime-local input shows it, in this browser's time zone: "2026-12-01T09:30". */
export function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A datetime-local value as an ISO instant. Left as it is when the browser cannot read it, so the
 * contract's own sentence says what is wrong. When it still shows the coupon's saved moment, that
 * moment is sent unchanged (the input has no seconds: a coupon made through the API ending at
 * 23:59:59 keeps its last minute).
 */
function toInstant(local: string, saved: string | null): string | null {
  if (local === "") return null;
  if (saved && toLocalInput(saved) === local) return saved;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

export function valuesOf(coupon: Coupon | null): CouponForm {
  if (!coupon) return NEW_COUPON;
  return {
    code: coupon.code,
    kind: coupon.kind,
    value: coupon.kind === "percent" ? String(Number(coupon.value)) : coupon.value,
    minSubtotal: coupon.minSubtotal ?? "",
    maxDiscount: coupon.maxDiscount ?? "",
    startsAt: toLocalInput(coupon.startsAt),
    endsAt: toLocalInput(coupon.endsAt),
    usageLimit: coupon.usageLimit == null ? "" : String(coupon.usageLimit),
    perCustomerLimit: coupon.perCustomerLimit == null ? "" : String(coupon.perCustomerLimit),
    firstOrderOnly: coupon.firstOrderOnly,
    productIds: coupon.productIds,
    categoryIds: coupon.categoryIds,
    isActive: coupon.isActive,
  };
}

/** The API's input; a fixed amount has no maximum discount (it is its own maximum). */
export function toCouponInput(values: CouponForm, saved: Coupon | null): CouponInput {
  return {
    code: values.code,
    kind: values.kind,
    value: values.value,
    minSubtotal: values.minSubtotal,
    maxDiscount: values.kind === "percent" ? values.maxDiscount : null,
    startsAt: toInstant(values.startsAt, saved?.startsAt ?? null),
    endsAt: toInstant(values.endsAt, saved?.endsAt ?? null),
    usageLimit: values.usageLimit,
    perCustomerLimit: values.perCustomerLimit,
    firstOrderOnly: values.firstOrderOnly,
    productIds: values.productIds,
    categoryIds: values.categoryIds,
    isActive: values.isActive,
  };
}

/** The form's schema: its text, as the API's input, through the contract's checks. */
export function couponFormSchema(saved: Coupon | null) {
  return CouponFormFields.transform((values) => toCouponInput(values, saved)).pipe(CouponInputSchema);
}

export type CouponFormOutput = z.output<ReturnType<typeof couponFormSchema>>;

/** The checked form as the API takes it: moments as ISO text (the schema's output holds Dates). */
export function toRequestBody(values: CouponFormOutput): CouponInput {
  return { ...values, startsAt: values.startsAt?.toISOString() ?? null, endsAt: values.endsAt?.toISOString() ?? null };
}

/**
 * The field a server refusal is about, from its sentence, so the message shows under that field:
 * the contract's own sentences name the field first ("Usage limit must be ..."), and the server's
 * generic form is "Invalid <key>: ...". Null: a sentence about the coupon as a whole.
 */
export function fieldOfServerError(status: number, sentence: string): CouponFormField | null {
  const generic = /^Invalid (\w+)\b/.exec(sentence)?.[1];
  if (generic && generic in NEW_COUPON) return generic as CouponFormField;
  const startsWith: [RegExp, CouponFormField][] = [
    [/^(a |the )?code\b|\bcode\b.*\b(exists|taken|in use)\b/i, "code"],
    [/^(kind|type)\b/i, "kind"],
    [/^(value|a percentage)\b/i, "value"],
    [/^minimum subtotal\b/i, "minSubtotal"],
    [/^maximum discount\b/i, "maxDiscount"],
    [/^start\b/i, "startsAt"],
    [/^end\b/i, "endsAt"],
    [/^usage limit\b/i, "usageLimit"],
    [/^uses per customer\b/i, "perCustomerLimit"],
    [/^(products?|an? product)\b/i, "productIds"],
    [/^(categories|category|an? category)\b/i, "categoryIds"],
  ];
  const found = startsWith.find(([pattern]) => pattern.test(sentence.trim()));
  if (found) return found[1];
  // "Some of the chosen products no longer exist."
  if (/\bproducts?\b/i.test(sentence)) return "productIds";
  if (/\bcategor(y|ies)\b/i.test(sentence)) return "categoryIds";
  // A conflict with no field named is most likely the code (the one thing two coupons cannot share).
  return status === 409 && /code/i.test(sentence) ? "code" : null;
}
