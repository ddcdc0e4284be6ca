import path from "node:path";
import type { Config } from "../config";
import { createDiskStorage, type ObjectStorage } from "./index";
import { createS3Storage } from "./s3";

/**
 * The image store a configuration names: the S3 bucket when S3_BUCKET is set (what several
 * instances need: they all see one store), else DATA_DIR/objects on the local disk.
 * The server (services.ts) and the maintenance scripts (backup, restore) take it from here.
 */
export function storageFor(config: Pick<Config, "dataDir" | "s3">): ObjectStorage {
  if (!config.s3) return createDiskStorage(path.join(config.dataDir, "objects"));
  const { bucket, endpoint, region, credentials, forcePathStyle } = config.s3;
  return createS3Storage({ bucket, endpoint, region, credentials, forcePathStyle });
}
