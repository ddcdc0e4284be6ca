// Crypto amounts stay decimal text end to end (up to 18 places; floats would lose them). Every
// comparison here is done on whole numbers (BigInt) after scaling both sides to the same places.

/**
 * The one grammar of an amount (docs/SECURITY.md, "Input limits"): ASCII digits, optionally a point
 * and more digits; at most 30 before the point and 18 after (a coin's smallest unit). No sign, no
 * exponent, no spaces, no "1." or ".5", no NaN or Infinity. (`\d` is ASCII only in JavaScript, so
 * other scripts' digits are refused too.)
 */
const DECIMAL = /^\d{1,30}(\.\d{1,18})?$/;

function placesOf(text: string): number {
  return text.split(".")[1]?.length ?? 0;
}

/** "0.00042" scaled to `places` decimal places, as a whole number (0.00042 at 6 places -> 420n). */
function scaled(text: string, places: number): bigint {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole! + fraction.padEnd(places, "0"));
}

/** A plain non-negative decimal ("12", "0.5"); never "1e-7", never negative. */
export function isDecimal(text: string | null | undefined): text is string {
  return typeof text === "string" && DECIMAL.test(text);
}

/**
 * A JSON number written out without an exponent, from JavaScript's shortest text for it (the one
 * JSON.stringify writes): 0.0003 -> "0.0003", 1e-7 -> "0.0000001", 1e21 -> "1000000000000000000000".
 * Digits are moved, never computed, so nothing is rounded on the way. Null for NaN, the infinities
 * and negative numbers (-0 included).
 */
function plainNumberText(value: number): string | null {
  if (!Number.isFinite(value) || value < 0 || Object.is(value, -0)) return null;
  const text = String(value);
  const exponential = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponential) return text;
  const digits = exponential[1]! + (exponential[2] ?? "");
  const point = 1 + Number(exponential[3]); // where the point falls in `digits`
  if (point <= 0) return `0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + "0".repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * An amount as the payment gateway sent it (in an IPN or an API answer), as decimal text; null when
 * it is not one. Text must already be in the grammar, exactly: "1e400", " 1", "+1", "1." are not
 * amounts. A JSON number has no text of its own once parsed: it is read as the shortest decimal
 * naming the same number, written out without an exponent (the gateway writes amounts under
 * 0.000001 as 1e-7 and the like, which is the same JSON number as 0.0000001), then held to the same
 * grammar, so 1e-19 (19 places) and 1e30 (31 digits) are refused.
 */
export function gatewayAmountText(value: unknown): string | null {
  const text = typeof value === "number" ? plainNumberText(value) : value;
  return typeof text === "string" && isDecimal(text) ? text : null;
}

/** Whether the text names an amount above zero ("0.0001" yes; "0", "0.000", null, "abc" no). */
export function isPositiveDecimal(text: string | null | undefined): boolean {
  return isDecimal(text) && scaled(text, placesOf(text)) > 0n;
}

/** Decimal a - b on text (crypto amounts have up to 18 places; floats would lose them). Null when not positive. */
export function decimalShortfall(due: string | null, paid: string | null): string | null {
  if (!isDecimal(due)) return null;
  const paidText = isDecimal(paid) ? paid : "0";
  const places = Math.max(placesOf(due), placesOf(paidText));
  const diff = scaled(due, places) - scaled(paidText, places);
  if (diff <= 0n) return null;
  const digits = diff.toString().padStart(places + 1, "0");
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Text in hundredths, exactly ("15.5" -> 1550); null when it has a non-zero third decimal or is not a plain decimal. */
function exactHundredths(text: string | null | undefined): number | null {
  if (!isDecimal(text)) return null;
  const places = Math.max(placesOf(text), 2);
  const value = scaled(text, places);
  const unit = 10n ** BigInt(places - 2);
  if (value % unit !== 0n) return null;
  const hundredths = value / unit;
  return hundredths <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(hundredths) : null;
}

/**
 * An amount of money as exact pence: "15" and "15.00" -> 1500, "12.5" -> 1250. Null when it is not
 * a whole number of pence ("15.001") or not a plain decimal: such an amount never equals an order
 * total, so it must not be rounded into one.
 */
export function decimalToPence(text: string | null | undefined): number | null {
  return exactHundredths(text);
}

/** A percentage such as 1, "1.5" or "1.00" (numeric(4,2)) in hundredths of a percent: 100, 150, 100. */
export function percentToBasisPoints(percent: string | number): number | null {
  if (typeof percent === "number") return Number.isFinite(percent) && percent >= 0 ? Math.round(percent * 100) : null;
  return exactHundredths(percent.trim());
}

/**
 * Whether `paid` falls short of `due` by more than `toleranceBasisPoints` (hundredths of a percent
 * of `due`): paid < due x (1 - tolerance). Exactly at the tolerance counts as paid. A payment with
 * no readable amount received counts as nothing received; a due amount we cannot read cannot be
 * checked, so it is not called short (the fiat amount was checked already).
 */
export function isShortPayment(due: string | null, paid: string | null, toleranceBasisPoints: number): boolean {
  if (!isDecimal(due)) return false;
  const paidText = isDecimal(paid) ? paid : "0";
  const places = Math.max(placesOf(due), placesOf(paidText));
  const tolerance = BigInt(Math.min(Math.max(Math.round(toleranceBasisPoints), 0), 10_000));
  return scaled(paidText, places) * 10_000n < scaled(due, places) * (10_000n - tolerance);
}
