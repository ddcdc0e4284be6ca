import type { CustomerMessage, StorefrontMessage } from "../../../contract";
import type { DbOrTx } from "../../db/client";
import { listThread, recordCustomerMessage } from "../customers";
import type { StorefrontCustomer } from "./customer";

// The customer's conversation with the shop from the storefront (issue 27): the same thread as in the
// bot's Contact Support. A message sent here is stored exactly as one typed in the bot, so it reaches
// the owner's Messages, its live event and the owner's Telegram alert the same way (their triggers).

/** How many of the latest messages the storefront shows, oldest first. */
export const STOREFRONT_MESSAGES_SHOWN = 100;

const messageView = (message: CustomerMessage): StorefrontMessage => ({
  id: message.id,
  message: message.message,
  fromShop: !message.isFromCustomer,
  createdAt: message.createdAt,
});

export async function storefrontThread(db: DbOrTx, telegramUserId: string): Promise<StorefrontMessage[]> {
  return (await listThread(db, telegramUserId, { last: STOREFRONT_MESSAGES_SHOWN })).map(messageView);
}

export async function sendStorefrontMessage(
  db: DbOrTx,
  customer: StorefrontCustomer,
  message: { message: string; orderId?: string | null },
  now: Date,
): Promise<StorefrontMessage> {
  return messageView(
    await recordCustomerMessage(db, { telegramUserId: customer.telegramUserId, telegramUsername: customer.username, message: message.message, orderId: message.orderId ?? null }, now),
  );
}
