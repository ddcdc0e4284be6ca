import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/** Where product images live. Local disk now; an S3-compatible store can implement the same. */
export type ObjectStorage = {
  put(objectId: string, data: Buffer, contentType: string): Promise<void>;
  get(objectId: string): Promise<{ data: Buffer; contentType: string } | null>;
  exists(objectId: string): Promise<boolean>;
  /** The id of every stored object, in no particular order: what a backup copies. */
  list(): AsyncIterable<string>;
};

const SAFE_ID = /^[A-Za-z0-9_-]{8,100}$/;

export function newObjectId(): string {
  return crypto.randomBytes(18).toString("base64url");
}

export function createDiskStorage(dir: string): ObjectStorage {
  const fileOf = (objectId: string) => {
    if (!SAFE_ID.test(objectId)) throw new Error("invalid object id");
    return path.join(dir, objectId);
  };
  return {
    async put(objectId, data, contentType) {
      await fs.mkdir(dir, { recursive: true });
      const file = fileOf(objectId);
      // Write then rename: a reader never sees half an image.
      await fs.writeFile(`${file}.tmp`, data);
      await fs.writeFile(`${file}.type`, contentType);
      await fs.rename(`${file}.tmp`, file);
    },
    async get(objectId) {
      if (!SAFE_ID.test(objectId)) return null;
      try {
        const file = fileOf(objectId);
        const [data, contentType] = await Promise.all([fs.readFile(file), fs.readFile(`${file}.type`, "utf8")]);
        return { data, contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async exists(objectId) {
      if (!SAFE_ID.test(objectId)) return false;
      return fs.access(fileOf(objectId)).then(
        () => true,
        () => false,
      );
    },
    async *list() {
      let names: string[];
      try {
        names = await fs.readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      // The ".type" and ".tmp" companions (and anything else) fail SAFE_ID: only objects are listed.
      for (const name of names.sort()) if (SAFE_ID.test(name)) yield name;
    },
  };
}
