import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

// The only module that reads process.env. Everything else receives a Config.
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  SECRET_KEY: z.string().min(16, "must be at least 16 characters").optional(),
  PUBLIC_URL: z
    .url()
    .transform((url) => url.replace(/\/+$/, ""))
    .optional(),
  // grammY refuses an API root that ends in "/".
  TELEGRAM_API_ROOT: z
    .url()
    .transform((url) => url.replace(/\/+$/, ""))
    .default("https://api.telegram.org"),
  NOWPAYMENTS_API_URL: z
    .url()
    .transform((url) => url.replace(/\/+$/, ""))
    .default("https://api.nowpayments.io/v1"),
  // Proxies whose X-Forwarded-For is believed: a hop count ("1") or addresses/subnets ("10.0.0.1, 10.0.0.0/8",
  // or proxy-addr's names "loopback", "uniquelocal"). Unset: none, so a client cannot pick its own address.
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(\d{1,2}|[0-9A-Za-z.:/-]+(\s*,\s*[0-9A-Za-z.:/-]+)*)$/, "must be a hop count (1) or a comma-separated list of proxy addresses")
    .optional(),
  TZ: z.string().min(1).default("Europe/London"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Product images in an S3-compatible bucket instead of DATA_DIR (several instances share them).
  S3_BUCKET: z.string().trim().min(3, "must be a bucket name").optional(),
  S3_ENDPOINT: z
    .url()
    .transform((url) => url.replace(/\/+$/, ""))
    .optional(),
  S3_REGION: z.string().trim().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false", "1", "0"], "must be true or false")
    .transform((value) => value === "true" || value === "1")
    .default(false),
  // How often the payment sweep and expiry run, counted across all instances (one run per interval).
  PAYMENT_JOBS_INTERVAL_MS: z.coerce.number().int().min(100).default(5 * 60 * 1000),
  // How long after a dispatch the owner may undo it before the customer is told (issue 22); 0 tells at once.
  DISPATCH_UNDO_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminPassword: string | undefined;
  secretKey: string | undefined;
  publicUrl: string | undefined;
  /** Fastify's trustProxy: false (the default), a hop count, or the proxy addresses. */
  trustProxy: false | number | string[];
  telegramApiRoot: string;
  nowpaymentsApiUrl: string;
  timeZone: string;
  logLevel: z.infer<typeof EnvSchema>["LOG_LEVEL"];
  /** Images in S3 when set; the local disk (DATA_DIR/objects) when undefined. */
  s3: S3Config | undefined;
  paymentJobsIntervalMs: number;
  /** The undo window of a dispatch: its customer's message is held this long (shop/orders/dispatch-notices.ts). */
  dispatchUndoMs: number;
};

export type S3Config = {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  /** Undefined: the AWS SDK's default credential chain (e.g. an instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings in .env files mean "unset".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join(".")} ${issue.message}`);
  }
  const e = parsed.data;
  return {
    s3: parseS3(e),
    paymentJobsIntervalMs: e.PAYMENT_JOBS_INTERVAL_MS,
    dispatchUndoMs: e.DISPATCH_UNDO_MS,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    adminPassword: e.ADMIN_PASSWORD,
    secretKey: e.SECRET_KEY,
    publicUrl: e.PUBLIC_URL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    telegramApiRoot: e.TELEGRAM_API_ROOT,
    nowpaymentsApiUrl: e.NOWPAYMENTS_API_URL,
    timeZone: e.TZ,
    logLevel: e.LOG_LEVEL,
  };
}

function parseS3(e: z.infer<typeof EnvSchema>): S3Config | undefined {
  const named = (["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter((name) => e[name] !== undefined);
  if (!e.S3_BUCKET) {
    // Half an S3 setup would otherwise silently store images on the local disk of each instance.
    if (named.length > 0) throw new ConfigError(`Invalid configuration: S3_BUCKET must be set when ${named[0]} is set`);
    return undefined;
  }
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError("Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together");
  }
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

function parseTrustProxy(value: string | undefined): Config["trustProxy"] {
  if (!value) return false;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  return value.split(",").map((entry) => entry.trim());
}

/**
 * Settings from a `.env` file in the working directory, when there is one (see .env.example).
 * Variables already set in the environment win over the file.
 */
export function loadEnvFile(file = ".env"): void {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}
