import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { products } from "../../db/schema";
import { createTestDatabase } from "../../../test-support/database";
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from "./db-errors";

describe("pgErrorCode", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  // The shop turns races (a category deleted while a product is saved) into sentences by this code.
  it("reads the foreign key violation through the driver's and Drizzle's wrapping", async () => {
    const error = await database.db
      .insert(products)
      .values({ name: "x", description: "", price: "1.00", categoryId: "00000000-0000-4000-8000-000000000000" })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(pgErrorCode(error)).toBe(FOREIGN_KEY_VIOLATION);
  });

  it("answers undefined for other errors", () => {
    expect(pgErrorCode(new Error("boom"))).toBeUndefined();
    expect(pgErrorCode(undefined)).toBeUndefined();
  });
});
