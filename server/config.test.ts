import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, loadEnvFile } from "./config";

describe("configuration", () => {
  it("uses the documented defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(5000);
    expect(config.host).toBe("0.0.0.0");
    expect(config.telegramApiRoot).toBe("https://api.telegram.org");
    expect(config.nowpaymentsApiUrl).toBe("https://api.nowpayments.io/v1");
    expect(config.databaseUrl).toBeUndefined();
  });

  it("strips trailing slashes from API roots (grammY refuses them)", () => {
    const config = loadConfig({ TELEGRAM_API_ROOT: "http://127.0.0.1:9/", PUBLIC_URL: "https://shop.example/" });
    expect(config.telegramApiRoot).toBe("http://127.0.0.1:9");
    expect(config.publicUrl).toBe("https://shop.example");
  });

  it("treats empty values as unset and names the bad setting", () => {
    expect(loadConfig({ DATABASE_URL: "" }).databaseUrl).toBeUndefined();
    expect(() => loadConfig({ PORT: "abc" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
  });

  it("reads a .env file without overriding the environment, and ignores a missing one", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "env-")), ".env");
    fs.writeFileSync(file, "SHOP_TEST_FROM_FILE=file\nSHOP_TEST_BOTH=file\n");
    process.env.SHOP_TEST_BOTH = "environment";
    loadEnvFile(file);
    expect(process.env.SHOP_TEST_FROM_FILE).toBe("file");
    expect(process.env.SHOP_TEST_BOTH).toBe("environment");
    expect(() => loadEnvFile(path.join(path.dirname(file), "missing.env"))).not.toThrow();
  });

  it("believes no proxy unless TRUST_PROXY names them, also with PUBLIC_URL", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ PUBLIC_URL: "https://shop.example" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.1, 10.1.0.0/16,loopback" }).trustProxy).toEqual(["10.0.0.1", "10.1.0.0/16", "loopback"]);
    expect(() => loadConfig({ TRUST_PROXY: "true; rm -rf" })).toThrow(/TRUST_PROXY/);
  });
});

describe("configuration: images in S3", () => {
  it("keeps images on the local disk unless S3_BUCKET is set", () => {
    expect(loadConfig({}).s3).toBeUndefined();
  });

  it("reads the bucket, endpoint, region, keys and path style", () => {
    const config = loadConfig({
      S3_BUCKET: "shop-images",
      S3_ENDPOINT: "http://minio:9000/",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
    });
    expect(config.s3).toEqual({
      bucket: "shop-images",
      endpoint: "http://minio:9000",
      region: "us-east-1",
      credentials: { accessKeyId: "key", secretAccessKey: "secret" },
      forcePathStyle: true,
    });
    // On AWS itself: no endpoint, and credentials from the SDK's own chain (an instance role).
    expect(loadConfig({ S3_BUCKET: "shop-images", S3_REGION: "eu-west-2" }).s3).toEqual({
      bucket: "shop-images",
      endpoint: undefined,
      region: "eu-west-2",
      credentials: undefined,
      forcePathStyle: false,
    });
  });

  it("refuses half an S3 setup rather than storing images on one instance's disk", () => {
    expect(() => loadConfig({ S3_ENDPOINT: "http://minio:9000" })).toThrow(/S3_BUCKET must be set when S3_ENDPOINT is set/);
    expect(() => loadConfig({ S3_BUCKET: "shop-images", S3_ACCESS_KEY_ID: "key" })).toThrow(/must be set together/);
    expect(() => loadConfig({ S3_BUCKET: "shop-images", S3_FORCE_PATH_STYLE: "yes" })).toThrow(/S3_FORCE_PATH_STYLE/);
    expect(() => loadConfig({ S3_BUCKET: "shop-images", S3_ENDPOINT: "not a url" })).toThrow(ConfigError);
  });
});
