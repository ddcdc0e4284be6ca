// PostgreSQL error codes we turn into sentences (https://www.postgresql.org/docs/current/errcodes-appendix.html).
export const FOREIGN_KEY_VIOLATION = "23503";
export const UNIQUE_VIOLATION = "23505";

/** The PostgreSQL error code of a failed query; Drizzle wraps the driver's error in `cause`. */
export function pgErrorCode(error: unknown): string | undefined {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
