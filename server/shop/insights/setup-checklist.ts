import { sql } from "drizzle-orm";
import { CURRENCIES, SETUP_STEPS, type SetupChecklist, type SetupStepId } from "../../../contract";
import type { SecretBox } from "../../crypto";
import type { DbOrTx } from "../../db/client";
import { categories, orders, postageOptions, products } from "../../db/schema";
import { queryRows } from "../../db/rows";
import { getBotSettings } from "../settings";

// The Dashboard's setup checklist (issue 22, item 8; docs/product.md §7 GET /api/dashboard/setup):
// what a new shop still lacks before a customer can buy, each step decided here from the stored rows,
// so the browser only shows it.

/**
 * - bot-token: the bot has a token (one that no longer decrypts counts as missing, as for the bot).
 * - payment-gateway: the API key and the IPN secret are both set: without the secret no payment
 *   notification can be verified, so no order would ever be paid.
 * - category: at least one category.
 * - product: a product customers can buy (active, with stock).
 * - postage: an active postage option (checkout asks for one).
 * - test-order: an order placed, by the chat simulator's test customer or, later, by a real one.
 */
export async function getSetupChecklist(db: DbOrTx, box: SecretBox): Promise<SetupChecklist> {
  const settings = await getBotSettings(db, box);
  const [row] = await queryRows<{ category: boolean; product: boolean; postage: boolean; order: boolean }>(
    db,
    sql`select
      exists (select 1 from ${categories}) as "category",
      exists (select 1 from ${products} where ${products.isActive} and ${products.stock} > 0) as "product",
      exists (select 1 from ${postageOptions} where ${postageOptions.isActive}) as "postage",
      exists (select 1 from ${orders}) as "order"`,
  );
  const paymentGatewayConfigured = Boolean(settings?.nowpaymentsApiKey && settings.nowpaymentsIpnSecret);
  const done: Record<SetupStepId, boolean> = {
    "bot-token": Boolean(settings?.botToken),
    "payment-gateway": paymentGatewayConfigured,
    category: Boolean(row?.category),
    product: Boolean(row?.product),
    postage: Boolean(row?.postage),
    "test-order": Boolean(row?.order),
  };
  const steps = SETUP_STEPS.map((id) => ({ id, done: done[id] }));
  return {
    steps,
    complete: steps.every((step) => step.done),
    paymentGatewayConfigured,
    acceptedCurrencies: settings?.acceptedCurrencies ?? [...CURRENCIES],
  };
}
