// Crypto amounts stay decimal text end to end (up to 18 places; floats would lose them). Every
// comparison here is done on whole numbers (BigInt) after scaling both sides to the same places.

const DECIMAL = /^\d+(\.\d+)?$/;

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
