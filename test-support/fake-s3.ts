import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Config } from "../server/config";

// An S3-compatible store on 127.0.0.1 for tests (s3rver, from npm; runs on Node 20+): real HTTP,
// so the AWS SDK runs exactly as against AWS or MinIO. Objects live in a temporary folder.

export type FakeS3 = {
  /** The settings a server uses to reach it (what S3_* in the environment would say). */
  config: S3Config;
  /** The same as environment variables, for a server started as a process. */
  env: Record<string, string>;
  close(): Promise<void>;
};

export async function startFakeS3(bucket = "shop-images"): Promise<FakeS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "shop-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver accepts its own fixed credentials.
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  return {
    config: { bucket, endpoint, region: "us-east-1", credentials, forcePathStyle: true },
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
