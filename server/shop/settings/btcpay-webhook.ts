import crypto from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, sql } from "drizzle-orm";
import type { SecretBox } from "../../crypto";
import type { Db } from "../../db/client";
import { jobRuns } from "../../db/schema";
import { conflict, unavailable } from "../common";
import { btcpayConfigured, getPaymentGatewaySettings, saveBtcpayWebhook } from "./payment-gateways";

// Registering the shop's webhook on the owner's BTCPay store (docs/btcpay.md, "Register the webhook";
// docs/decisions/0035-btcpay-beside-nowpayments.md).
// BTCPay posts each event to every webhook on the store, so pressing "Register webhook" again (a new
// PUBLIC_URL, a lost secret) must replace the shop's webhook, never add one beside it: a second one
// would deliver everything twice, once signed with a secret the shop no longer has.
//
// One registration at a time, across instances: a claim in job_runs taken with one conditional upsert
// on the database's clock, as the payment jobs claim their interval (docs/decisions/0010), rather than
// a lock or transaction held open across BTCPay's calls. A claim left by a process that died lapses
// after REGISTRATION_CLAIM_MS; the save checks that the claim is still this registration's.

/** The store's webhooks as the shop asks for them (gateways/btcpay implements it over the Greenfield API). */
export type BtcpayWebhookApi = {
  /** Every webhook on the store: its id and the address it posts to. */
  list(): Promise<{ id: string; url: string }[]>;
  /** Adds a webhook posting to `url`, signed with `secret`; answers BTCPay's id for it. */
  create(webhook: { url: string; secret: string }): Promise<string>;
  /** Points an existing webhook at `url`, signed with `secret`; false when BTCPay no longer has it. */
  update(id: string, webhook: { url: string; secret: string }): Promise<boolean>;
  /** Deletes a webhook; one already gone is no error. */
  remove(id: string): Promise<void>;
};

export type BtcpayConnection = { serverUrl: string; storeId: string; apiKey: string };

/** All of one registration's calls to BTCPay end within this (each call has its own shorter timeout too). */
const BTCPAY_WEBHOOK_DEADLINE_MS = 60_000;
/** How long a claim holds: past the deadline, with room for the database's part. */
const REGISTRATION_CLAIM_MS = 2 * BTCPAY_WEBHOOK_DEADLINE_MS;
/** How often a registration waiting for another one's claim tries again. */
const CLAIM_RETRY_MS = 100;
const CLAIM_NAME = "btcpay-webhook-registration";

const CONNECT_BTCPAY_FIRST_MESSAGE = "Connect BTCPay Server first: save its server address, store ID and API key.";
const REGISTRATION_BUSY_MESSAGE =
  "Another registration of the BTCPay webhook is still running (another click, or another server instance): try again in a minute.";
const CLAIM_LOST_MESSAGE =
  "Registering the BTCPay webhook took too long and another registration has started since: look at the webhook's state in a minute, and register it again if it is not registered.";
const STORE_CHANGED_MESSAGE = "The BTCPay Server address or store ID changed while the webhook was being registered: register the webhook again.";

/**
 * Takes the claim when it is free or has lapsed; answers its token (the time it was taken, to the
 * millisecond, so it reads back exactly), or null while another registration holds it.
 */
async function tryClaim(db: Db): Promise<Date | null> {
  const now = sql`date_trunc('milliseconds', now())`;
  const lapsed = sql`${jobRuns.lastRunAt} <= now() - ${REGISTRATION_CLAIM_MS} * interval '1 millisecond'`;
  const [claimed] = await db
    .insert(jobRuns)
    .values({ name: CLAIM_NAME, lastRunAt: now })
    .onConflictDoUpdate({ target: jobRuns.name, set: { lastRunAt: now }, setWhere: lapsed })
    .returning({ token: jobRuns.lastRunAt });
  return claimed?.token ?? null;
}

/** Waits for the claim while another registration finishes (at most one registration's time). */
async function claim(db: Db): Promise<Date> {
  const giveUpAt = Date.now() + BTCPAY_WEBHOOK_DEADLINE_MS;
  for (;;) {
    const token = await tryClaim(db);
    if (token) return token;
    if (Date.now() >= giveUpAt) throw conflict(REGISTRATION_BUSY_MESSAGE);
    await sleep(CLAIM_RETRY_MS);
  }
}

const claimHeld = (token: Date) => and(eq(jobRuns.name, CLAIM_NAME), eq(jobRuns.lastRunAt, token));

/** Saves (or clears) the webhook in one transaction that first checks the claim is still this registration's. */
async function saveWhileClaimed(
  deps: { db: Db; secrets: SecretBox },
  token: Date,
  connection: BtcpayConnection,
  webhook: { id: string; url: string; secret: string } | null,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // FOR UPDATE: a registration whose claim lapsed cannot take it over until this save is done.
    const [held] = await tx.select({ name: jobRuns.name }).from(jobRuns).where(claimHeld(token)).for("update");
    if (!held) throw unavailable(CLAIM_LOST_MESSAGE);
    if (!(await saveBtcpayWebhook(tx, deps.secrets, connection, webhook))) throw conflict(STORE_CHANGED_MESSAGE);
  });
}

/**
 * Registers the shop's webhook on the saved BTCPay store, posting to `url` with a new secret, and
 * saves its id and secret (POST /api/payment-gateways/btcpay/webhook). The shop's webhook already
 * on the store (the saved id) is updated in place; one that BTCPay no longer has is created again.
 * Other webhooks posting to exactly `url` (left by registrations before this rule) are deleted;
 * webhooks posting anywhere else are the owner's other integrations and are never touched.
 *
 * When BTCPay refuses a step, the saved webhook still matches the store: the shop's own webhook is
 * changed last, and a saved one found gone from the store is cleared rather than left "registered".
 */
export async function registerBtcpayWebhook(
  deps: { db: Db; secrets: SecretBox },
  options: { url: string; webhooksOf: (connection: BtcpayConnection, signal: AbortSignal) => BtcpayWebhookApi },
): Promise<void> {
  const { url } = options;
  const token = await claim(deps.db);
  try {
    const { btcpay } = await getPaymentGatewaySettings(deps.db, deps.secrets);
    if (!btcpayConfigured(btcpay)) throw conflict(CONNECT_BTCPAY_FIRST_MESSAGE);
    const { serverUrl, storeId, apiKey } = btcpay as BtcpayConnection;
    const connection = { serverUrl, storeId, apiKey };
    const api = options.webhooksOf(connection, AbortSignal.timeout(BTCPAY_WEBHOOK_DEADLINE_MS));
    const secret = crypto.randomBytes(32).toString("base64url");

    const onStore = await api.list();
    let savedGone = btcpay.webhookId !== null && !onStore.some((hook) => hook.id === btcpay.webhookId);
    try {
      const kept = onStore.find((hook) => hook.id === btcpay.webhookId) ?? onStore.find((hook) => hook.url === url) ?? null;
      for (const stale of onStore.filter((hook) => hook.url === url && hook.id !== kept?.id)) await api.remove(stale.id);
      let id: string | null = null;
      if (kept) {
        if (await api.update(kept.id, { url, secret })) id = kept.id;
        else if (kept.id === btcpay.webhookId) savedGone = true;
      }
      id ??= await api.create({ url, secret });
      await saveWhileClaimed(deps, token, connection, { id, url, secret });
    } catch (error) {
      // The saved webhook is no longer on the store: the card must not call it registered.
      if (savedGone) await saveWhileClaimed(deps, token, connection, null).catch(() => {});
      throw error;
    }
  } finally {
    // Given back at once; a claim that could not be given back lapses on its own.
    await deps.db
      .delete(jobRuns)
      .where(claimHeld(token))
      .catch(() => {});
  }
}
