import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { uploadTokens } from "../db/schema";
import { confirmProductImage, createUploadUrl, receiveUpload } from "../shop/catalogue";
import { createTestDatabase } from "../../test-support/database";
import { startFakeS3, type FakeS3 } from "../../test-support/fake-s3";
import { storageFor } from "./configured";
import { createDiskStorage, newObjectId, type ObjectStorage } from "./index";
import { createS3Storage } from "./s3";

// Both image stores keep the same promises, so an instance behind a load balancer serves an image
// another instance received (S3), and a single box keeps working from its disk.

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let s3: FakeS3;
let diskDir: string;
beforeAll(async () => {
  s3 = await startFakeS3();
  diskDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-disk-store-"));
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(diskDir, { recursive: true, force: true });
});

const stores: [string, () => ObjectStorage][] = [
  ["local disk", () => createDiskStorage(diskDir)],
  ["S3 (s3rver on 127.0.0.1)", () => createS3Storage(s3.config)],
];

describe.each(stores)("image store: %s", (_name, open) => {
  it("gives back the bytes and type it was given, and says which ids exist", async () => {
    const store = open();
    const id = newObjectId();
    expect(await store.exists(id)).toBe(false);
    expect(await store.get(id)).toBeNull();
    await store.put(id, PNG, "image/png");
    expect(await store.exists(id)).toBe(true);
    expect(await store.get(id)).toEqual({ data: PNG, contentType: "image/png" });
    const listed: string[] = [];
    for await (const objectId of store.list()) listed.push(objectId);
    expect(listed).toContain(id);
  });

  it("never turns a hostile id into a path or key", async () => {
    const store = open();
    for (const id of ["../secret.key", "a/b/c/d/e/f", "short", ""]) {
      expect(await store.get(id)).toBeNull();
      expect(await store.exists(id)).toBe(false);
      await expect(store.put(id, PNG, "image/png")).rejects.toThrow(/invalid object id/);
    }
  });
});

describe("choosing the image store", () => {
  it("uses S3 when S3_BUCKET is set: one instance stores, another reads", async () => {
    const first = storageFor({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "shop-a-")), s3: s3.config });
    const second = storageFor({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "shop-b-")), s3: s3.config });
    const id = newObjectId();
    await first.put(id, PNG, "image/png");
    expect(await second.get(id)).toEqual({ data: PNG, contentType: "image/png" });
  });

  it("uses DATA_DIR/objects otherwise", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-c-"));
    const id = newObjectId();
    await storageFor({ dataDir, s3: undefined }).put(id, PNG, "image/png");
    expect(fs.readFileSync(path.join(dataDir, "objects", id))).toEqual(PNG);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

describe("an upload stored in S3", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  const tokenOf = (uploadURL: string) => uploadURL.split("/").at(-1)!;

  it("is stored once, confirmed by its URL, and a failed store leaves the URL usable", async () => {
    const store = createS3Storage(s3.config);
    const now = new Date();
    const { uploadURL } = await createUploadUrl(database.db, now);
    const token = tokenOf(uploadURL);

    // The store is down: the admin sees an error, and the same URL works once it is back.
    const broken: ObjectStorage = { ...store, put: () => Promise.reject(new Error("S3 is unreachable")) };
    await expect(receiveUpload(database.db, broken, { token, data: PNG, contentType: "image/png", now })).rejects.toThrow(/unreachable/);
    expect((await database.db.select().from(uploadTokens)).map((row) => row.usedAt)).toEqual([null]);

    const { objectPath } = await receiveUpload(database.db, store, { token, data: PNG, contentType: "image/png", now });
    expect(await confirmProductImage(database.db, store, uploadURL)).toEqual({ objectPath });
    expect(await store.get(objectPath.replace("/objects/", ""))).toEqual({ data: PNG, contentType: "image/png" });

    // Used up: a second upload to the same URL is refused and does not replace the image.
    await expect(receiveUpload(database.db, store, { token, data: Buffer.from("other"), contentType: "image/png", now })).rejects.toThrow(
      /already been used/,
    );
  });

  it("is not held inside a database transaction while the bytes travel", async () => {
    const store = createS3Storage(s3.config);
    const now = new Date();
    const { uploadURL } = await createUploadUrl(database.db, now);
    let inTransaction: boolean | undefined;
    // The database answers other queries while the store is writing (on PGlite a transaction
    // in progress would make this query wait for it: its one connection would be taken).
    const watching: ObjectStorage = {
      ...store,
      async put(id, data, type) {
        const probe = database.db.select().from(uploadTokens).limit(1);
        inTransaction = await Promise.race([probe.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 2_000))]);
        await store.put(id, data, type);
      },
    };
    await receiveUpload(database.db, watching, { token: tokenOf(uploadURL), data: PNG, contentType: "image/png", now });
    expect(inTransaction).toBe(false);
  });
});
