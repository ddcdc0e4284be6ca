import type { S3Client } from "@aws-sdk/client-s3";
import type { ObjectStorage } from "./index";

// Product images in an S3-compatible bucket (AWS S3, MinIO, R2, ...), so every server instance
// behind a load balancer sees the image another one received. Chosen by services.ts when S3_BUCKET
// is set; the local disk otherwise.

export type S3StorageOptions = {
  bucket: string;
  /** Unset: AWS S3 itself. Set for any other S3-compatible store, e.g. http://minio:9000. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's default credential chain (AWS_* variables, an instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Path-style URLs (endpoint/bucket/key): what MinIO and most self-hosted stores need. */
  forcePathStyle: boolean;
};

/** Same rule as the disk storage: an object id never becomes an arbitrary key. */
const SAFE_ID = /^[A-Za-z0-9_-]{8,100}$/;

/** S3 says "missing" in two ways: NoSuchKey for GET, a bare 404 (NotFound) for HEAD. */
function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

type Sdk = typeof import("@aws-sdk/client-s3");

export function createS3Storage(options: S3StorageOptions): ObjectStorage & { destroy(): void } {
  // The SDK costs about 26 MB and a quarter of a second to load: only a server that uses S3 pays.
  let loaded: Promise<{ sdk: Sdk; client: S3Client }> | undefined;
  let client: S3Client | undefined;
  const s3 = () =>
    (loaded ??= import("@aws-sdk/client-s3").then((sdk) => {
      client = new sdk.S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle,
        credentials: options.credentials,
        // Images are small and the admin waits on the upload: a few quick retries, not a long backoff.
        maxAttempts: 3,
      });
      return { sdk, client };
    }));
  const { bucket } = options;
  const keyOf = (objectId: string) => {
    if (!SAFE_ID.test(objectId)) throw new Error("invalid object id");
    return objectId;
  };

  return {
    async put(objectId, data, contentType) {
      const { sdk, client } = await s3();
      // A PUT is atomic in S3: a reader sees the old object, no object, or all of the new one.
      await client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: keyOf(objectId), Body: data, ContentType: contentType }));
    },
    async get(objectId) {
      if (!SAFE_ID.test(objectId)) return null;
      const { sdk, client } = await s3();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: objectId }));
        if (!object.Body) return null;
        const data = Buffer.from(await object.Body.transformToByteArray());
        return { data, contentType: object.ContentType ?? "application/octet-stream" };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async exists(objectId) {
      if (!SAFE_ID.test(objectId)) return false;
      const { sdk, client } = await s3();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: objectId }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async *list() {
      const { sdk, client } = await s3();
      let token: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        // Whatever else shares the bucket is not ours: only keys shaped like object ids.
        for (const object of page.Contents ?? []) if (object.Key && SAFE_ID.test(object.Key)) yield object.Key;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    /** Closes the client's idle connections (tests, shutdown). */
    destroy: () => client?.destroy(),
  };
}
