import { InputFile } from "grammy";
import type { Update, UserFromGetMe } from "grammy/types";
import { conflict } from "../shop/common";
import { getBotSettings } from "../shop/settings";
import { createBot } from "./bot";
import type { BotDeps, BotLogger } from "./context";

// The Bot Preview tester: an update typed in the dashboard runs through the real bot (so the
// shop's data changes as it would for a customer), but what the bot would send to Telegram is
// captured and answered to the admin instead of sent.

export type PreviewCall = { method: string } & Record<string, unknown>;
export type PreviewResult = { ok: true; replies: PreviewCall[] };

export const NO_SETTINGS_MESSAGE = "No bot settings found. Please configure your bot settings first.";

/** For the JSON answer: an uploaded image is named, not dumped. */
function plain(payload: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(payload ?? {}, (_key, value: unknown) => (value instanceof InputFile ? "[image file]" : value)));
}

/** What Telegram would have answered, closely enough for the handlers to carry on. */
function fakeResult(method: string, payload: Record<string, unknown>, messageId: number): unknown {
  if (!/^(send|edit)/.test(method)) return true;
  return {
    message_id: messageId,
    date: Math.floor(Date.now() / 1000),
    chat: { id: Number(payload.chat_id) || 0, type: "private" },
    ...(typeof payload.text === "string" ? { text: payload.text } : {}),
    ...(typeof payload.caption === "string" ? { caption: payload.caption } : {}),
  };
}

/** A command typed by hand in the tester often lacks the entity Telegram always adds; add it. */
function withCommandEntity(update: Update): Update {
  const message = update.message;
  const command = message?.text ? /^\/\w+(@\w+)?/.exec(message.text) : null;
  if (!message || !command || message.entities?.length) return update;
  return { ...update, message: { ...message, entities: [{ type: "bot_command", offset: 0, length: command[0].length }] } };
}

export async function previewUpdate(
  deps: BotDeps,
  update: Update,
  options: { log: BotLogger; botInfo?: UserFromGetMe | null },
): Promise<PreviewResult> {
  const settings = await getBotSettings(deps.db, deps.secrets);
  if (!settings) throw conflict(NO_SETTINGS_MESSAGE);
  const botInfo: UserFromGetMe = options.botInfo ?? {
    id: 0,
    is_bot: true,
    first_name: settings.botName,
    username: "bot_preview",
    can_join_groups: false,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
    can_manage_bots: false,
    supports_join_request_queries: false,
  };
  const bot = createBot(deps, settings, { log: options.log, botInfo, retry: false });
  const replies: PreviewCall[] = [];
  let messageId = 1;
  bot.api.config.use(async (_previous, method, payload) => {
    const body = plain(payload);
    replies.push({ method, ...body });
    return { ok: true, result: fakeResult(method, body, messageId++) } as never;
  });
  await bot.handleUpdate(withCommandEntity(update));
  return { ok: true, replies };
}
