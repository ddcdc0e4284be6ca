import type { FastifyBaseLogger } from "fastify";
import type { Context } from "grammy";
import type { BotSettings } from "../../contract";
import type { AppDeps } from "../http/deps";
import type { ConversationState } from "../shop/conversations";

export type BotLogger = Pick<FastifyBaseLogger, "info" | "warn" | "error">;

/** What the bot's handlers reach the shop through: the server's deps, the settings and a logger. */
export type BotDeps = AppDeps;

/** grammY's context plus the shop: who the customer is, where they are in a conversation. */
export type BotContext = Context & {
  deps: BotDeps;
  /** The settings as saved now (read per update, so a second server instance sees a save too). */
  settings: BotSettings;
  log: BotLogger;
  /** The customer's Telegram user id as text, as the shop stores it. */
  customerId: string;
  conversation: ConversationState;
  /** Stores the customer's next step in the database before anything is shown. */
  setConversation(state: ConversationState): Promise<void>;
};
