import crypto from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { uploadTokens } from "../../db/schema";
import { newObjectId, type ObjectStorage } from "../../storage";
import { conflict, invalid, notFound } from "../common";

// Product images (docs/product.md §7 upload calls, docs/product.md rule 9): the admin asks for an upload URL, sends
// the image bytes to it once, then confirms the image, which becomes the product's imageUrl
// ("/objects/<id>", served publicly so Telegram and <img> can load it).

export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;
/** Used tokens are kept a day, so a finished upload can still be confirmed by its URL. */
const USED_TOKEN_KEEP_MS = 24 * 60 * 60 * 1000;
export const UPLOAD_PATH_PREFIX = "/api/objects/upload/";
const OBJECT_PATH = /^\/objects\/([A-Za-z0-9_-]+)$/;

export type ImageType = "image/png" | "image/jpeg" | "image/webp";

const startsWith = (data: Buffer, bytes: number[], at = 0) => bytes.every((byte, i) => data[at + i] === byte);

/** The image type read from the bytes themselves; the file name and the declared type are not trusted. */
export function detectImageType(data: Buffer): ImageType | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(data, [0xff, 0xd8, 0xff])) return "image/jpeg";
  // RIFF <4-byte size> WEBP
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

export const objectPathOf = (objectId: string) => `/objects/${objectId}`;

// Only a hash is stored: the table does not hold live upload URLs.
const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** A short-lived, single-use URL on this server to send one image to. */
export async function createUploadUrl(db: DbOrTx, now: Date): Promise<{ uploadURL: string }> {
  const token = crypto.randomBytes(32).toString("base64url");
  // Housekeeping: tokens long past their use are of no further use.
  await db.delete(uploadTokens).where(lt(uploadTokens.expiresAt, new Date(now.getTime() - USED_TOKEN_KEEP_MS)));
  await db.insert(uploadTokens).values({
    tokenHash: hashToken(token),
    objectId: newObjectId(),
    createdAt: now,
    expiresAt: new Date(now.getTime() + UPLOAD_URL_TTL_MS),
  });
  return { uploadURL: UPLOAD_PATH_PREFIX + token };
}

/**
 * Stores the image sent to an upload URL and uses the URL up. The token is claimed first (one
 * conditional UPDATE, so two requests racing on one URL cannot both store), then the bytes are
 * stored outside any transaction: a database transaction held open across an S3 call would pin a
 * connection and its row locks for as long as the store takes. If storing fails the claim is
 * given back, so the URL can be tried again.
 */
export async function receiveUpload(
  db: DbOrTx,
  storage: ObjectStorage,
  upload: { token: string; data: Buffer; contentType: ImageType; now: Date },
): Promise<{ objectPath: string }> {
  const tokenHash = hashToken(upload.token);
  const [claimed] = await db
    .update(uploadTokens)
    .set({ usedAt: upload.now })
    .where(and(eq(uploadTokens.tokenHash, tokenHash), isNull(uploadTokens.usedAt), gt(uploadTokens.expiresAt, upload.now)))
    .returning({ objectId: uploadTokens.objectId });
  if (!claimed) {
    const [row] = await db.select().from(uploadTokens).where(eq(uploadTokens.tokenHash, tokenHash));
    if (row?.usedAt) throw conflict("This upload URL has already been used. Ask for a new one to upload another image.");
    throw notFound("This upload URL is unknown or has expired. Ask for a new one.");
  }
  try {
    await storage.put(claimed.objectId, upload.data, upload.contentType);
  } catch (error) {
    await db
      .update(uploadTokens)
      .set({ usedAt: null })
      .where(and(eq(uploadTokens.tokenHash, tokenHash), eq(uploadTokens.usedAt, upload.now)));
    throw error;
  }
  return { objectPath: objectPathOf(claimed.objectId) };
}

/**
 * The object path of an uploaded image, given the upload URL it was sent to (absolute or not) or
 * its /objects/<id> path. Refuses anything that does not name an image stored here.
 */
export async function confirmProductImage(
  db: DbOrTx,
  storage: ObjectStorage,
  imageURL: string,
): Promise<{ objectPath: string }> {
  let pathname: string;
  try {
    pathname = new URL(imageURL, "http://localhost").pathname;
  } catch {
    throw invalid("Image must be an upload URL or an /objects/ path from this server.");
  }
  let objectId: string | undefined;
  if (pathname.startsWith(UPLOAD_PATH_PREFIX)) {
    const token = pathname.slice(UPLOAD_PATH_PREFIX.length);
    const [row] = await db.select().from(uploadTokens).where(eq(uploadTokens.tokenHash, hashToken(token)));
    if (!row?.usedAt) throw notFound("No image was uploaded to this URL. Please upload the image again.");
    objectId = row.objectId;
  } else {
    objectId = OBJECT_PATH.exec(pathname)?.[1];
    if (!objectId) throw invalid("Image must be an upload URL or an /objects/ path from this server.");
  }
  if (!(await storage.exists(objectId))) throw notFound("The uploaded image was not found. Please upload it again.");
  return { objectPath: objectPathOf(objectId) };
}
