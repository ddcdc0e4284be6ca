import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers of the server (docs/decisions/0011-layers.md): the shop is the domain and knows no
// adapter; payments and the bot are adapters over it; HTTP is the outermost adapter, wired only by
// main.ts (and tests). Import paths are matched as written ("../http/deps", "../../telegram/ui").
const HTTP = { group: ["**/http/*"], message: "Only server/main.ts and tests import the HTTP layer; declare what you need in your own layer." };
const SERVICES = { group: ["**/services"], message: "Declare the slice of the services you need (a deps type) instead of importing the wiring." };
const TELEGRAM = { group: ["**/telegram/*"], message: "The Telegram bot is an adapter: shop and payments reach customers through the CustomerNotifier in shop/ports.ts." };
const restrictImports = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

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
    files: ["server/**/*.ts", "scripts/**/*.ts"],
    ignores: ["server/main.ts", "server/http/**", "**/*.test.ts"],
    rules: restrictImports(HTTP, SERVICES),
  },
  {
    files: ["server/payments/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: restrictImports(HTTP, SERVICES, TELEGRAM),
  },
  {
    files: ["server/shop/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: restrictImports(HTTP, SERVICES, TELEGRAM, {
      group: ["**/payments/*", "!**/payments/gateway"],
      message: "The shop knows only the payment gateway's interface (payments/gateway.ts); the server hands it a gateway.",
    }),
  },
);
