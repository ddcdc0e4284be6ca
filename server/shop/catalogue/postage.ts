import { asc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { PostageOptionInputSchema, PostageOptionPatchSchema } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { postageOptions } from "../../db/schema";
import { notFound } from "../common";

export type PostageValues = z.output<typeof PostageOptionInputSchema>;
export type PostagePatch = z.output<typeof PostageOptionPatchSchema>;
export type PostageRow = typeof postageOptions.$inferSelect;

const NOT_FOUND = "Postage option not found.";

/** In the order they were added, so the admin's table and the bot's choices stay put. */
export function listPostageOptions(db: DbOrTx): Promise<PostageRow[]> {
  return db.select().from(postageOptions).orderBy(asc(postageOptions.createdAt), asc(postageOptions.id));
}

export async function createPostageOption(db: DbOrTx, values: PostageValues): Promise<PostageRow> {
  const [row] = await db.insert(postageOptions).values(values).returning();
  return row!;
}

/** Changes only the fields given (the status badge sends just {isActive}). */
export async function updatePostageOption(db: DbOrTx, id: string, patch: PostagePatch): Promise<PostageRow> {
  const [row] = await db.update(postageOptions).set(patch).where(eq(postageOptions.id, id)).returning();
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** Orders that chose this option keep working: their postageOptionId becomes null (FK set null). */
export async function deletePostageOption(db: DbOrTx, id: string): Promise<void> {
  const deleted = await db.delete(postageOptions).where(eq(postageOptions.id, id)).returning({ id: postageOptions.id });
  if (deleted.length === 0) throw notFound(NOT_FOUND);
}
