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
