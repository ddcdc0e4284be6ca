import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers of the server (docs/decisions/0011-layers.md): the shop is the domain and knows no
// adapter. It is grouped by capability (server/shop/<folder>/), and each folder has one public face,
// its index.ts: other folders and the adapters import only that. The gateways (server/gateways/<name>/)
// implement the shop's payment gateway port; they, the payment jobs' timer and the bot are adapters
// over the shop; HTTP is the outermost adapter, wired only by main.ts (and tests). Tests and
// test-support/ may reach inside. Import paths are matched as written ("../http/deps", "../../telegram/ui").
const HTTP = { group: ["**/http/*"], message: "Only server/main.ts and tests import the HTTP layer; declare what you need in your own layer." };
const SERVICES = { group: ["**/services"], message: "Declare the slice of the services you need (a deps type) instead of importing the wiring." };
const TELEGRAM = { group: ["**/telegram/*"], message: "The Telegram bot is an adapter: shop and payments reach customers through the CustomerNotifier in shop/common/ports.ts." };
const GATEWAYS = { group: ["**/gateways", "**/gateways/**"], message: "The shop knows only its payment gateway port (shop/payments/gateway-port.ts); the server hands it a gateway." };
const MAIN = { group: ["**/main"], message: "Nothing imports the server's entry point." };
const PAYMENT_JOBS = { group: ["../../payments", "../../payments/*"], message: "server/payments/ holds the payment jobs' timer, an adapter over the shop; the shop's payment rules are in shop/payments/." };
const SHOP_FACE_INSIDE = {
  group: ["../*/*", "!../../**"],
  message: 'Another folder of the shop is reached through its face (index.ts): import "../orders", not "../orders/orders".',
};
const SHOP_FACE_OUTSIDE = {
  group: ["**/shop/*/*"],
  message: 'The shop\'s folders are reached through their faces (index.ts): import "../shop/orders", not "../shop/orders/orders".',
};
// The ground (database, object storage, configuration, crypto, logging) serves every layer and
// depends on none of them: a change in the shop or an adapter never reaches down into it.
const ABOVE_GROUND = {
  group: ["**/shop", "**/shop/**", "**/telegram/**", "**/http/**", "**/gateways/**", "**/payments/**", "**/auth/**", "**/backup/**", "**/services", "**/jobs", "**/main"],
  message: "The ground (db/, storage/, config, crypto, logging) imports nothing above it: pass what it needs in as a parameter.",
};
const restrictImports = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });
// What the server runs imports no test support (issue 21): vitest, fast-check and the test helpers
// are for *.test.ts and test-support/ only. Rule options do not merge across blocks, so every
// server block below lists it.
const TEST_SUPPORT = {
  group: ["vitest", "vitest/*", "fast-check", "**/testing/*", "**/test-support/*"],
  message: "Only tests and test-support/ import vitest, fast-check or the test helpers; the running server must not.",
};
// contract/ is shared by the server and the browser: zod and its own files only, nothing of
// server/ or web/ and no Node module.
const CONTRACT_ONLY_ZOD = {
  regex: "^(?!zod$|\\./)",
  message: "contract/ imports only zod and its own files (./x): it runs in the server and in the browser.",
};
// The browser's code reaches the rest of the project only through contract/.
const WEB_OUTSIDE = {
  regex: "^(\\.\\./)+(server|e2e|scripts|drizzle|test-support)(/|$)",
  message: "web/ imports only contract/ and web/ itself (and packages); what it needs of the server comes over the API.",
};

export default tseslint.config(
  { ignores: ["dist", "data", "node_modules", "drizzle", "test-results", "playwright-report", "e2e/output"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ["contract/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: restrictImports(CONTRACT_ONLY_ZOD),
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    rules: restrictImports(WEB_OUTSIDE),
  },
  {
    files: ["scripts/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: restrictImports(HTTP, SERVICES, SHOP_FACE_OUTSIDE),
  },
  {
    files: ["server/**/*.ts"],
    ignores: ["server/main.ts", "server/http/**", "server/payments/**", "server/gateways/**", "server/shop/**", "**/*.test.ts"],
    rules: restrictImports(HTTP, SERVICES, SHOP_FACE_OUTSIDE, TEST_SUPPORT),
  },
  {
    files: ["server/main.ts", "server/http/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: restrictImports(SHOP_FACE_OUTSIDE, TEST_SUPPORT),
  },
  {
    files: ["server/http/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: restrictImports(SHOP_FACE_OUTSIDE, TEST_SUPPORT, MAIN),
  },
  {
    files: ["server/db/**/*.ts", "server/storage/**/*.ts", "server/config.ts", "server/crypto.ts", "server/logging.ts", "server/project-root.ts"],
    ignores: ["**/*.test.ts"],
    rules: restrictImports(HTTP, SERVICES, SHOP_FACE_OUTSIDE, TEST_SUPPORT, ABOVE_GROUND),
  },
  {
    // Background work is declared once, in server/jobs.ts, and started by main.ts: no route starts any.
    files: ["server/http/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='addHook'][arguments.0.value='onReady']",
          message: "Routes start no background work: declare it as a job in server/jobs.ts (started by main.ts).",
        },
      ],
    },
  },
  {
    files: ["server/payments/**/*.ts", "server/gateways/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: restrictImports(HTTP, SERVICES, TELEGRAM, SHOP_FACE_OUTSIDE, TEST_SUPPORT),
  },
  {
    files: ["server/shop/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: restrictImports(HTTP, SERVICES, TELEGRAM, GATEWAYS, MAIN, PAYMENT_JOBS, SHOP_FACE_INSIDE, TEST_SUPPORT),
  },
);
