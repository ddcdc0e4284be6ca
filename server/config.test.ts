import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

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
});
