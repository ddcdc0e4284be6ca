import { eq } from "drizzle-orm";
import { InputFile, type Bot } from "grammy";
import type { Message, Update, UserFromGetMe } from "grammy/types";
import type { SimulatorButton, SimulatorEvent, SimulatorMessage } from "../../contract";
import { telegramFileCache } from "../db/schema";
import { conflict, notFound } from "../shop/common";
import { getBotSettings } from "../shop/settings";
import { addSimulatorMessage, deleteSimulatorMessage, editSimulatorMessage, getSimulatorMessage, resetTestCustomer, TEST_CUSTOMER_ID, TEST_CUSTOMER_NAME } from "../shop/simulator";
import type { ObjectStorage } from "../storage";
import { createBot } from "./bot";
import type { BotContext, BotDeps, BotLogger } from "./context";
import { NO_SETTINGS_MESSAGE } from "./preview";

// Bot Preview's chat simulator (issue 14, item 1; docs/decisions/0023-chat-simulator.md): what the
// admin types or presses runs through the real bot as the test customer, and every Bot API call the
// bot makes is captured here instead of sent: it becomes the simulator's chat (shop/simulator/simulator.ts)
// and is answered as Telegram would, closely enough for the bot to carry on (message ids that later
// edits find, a photo's file). Nothing of a turn leaves the server.

export type SimulatorAction = { kind: "text"; text: string } | { kind: "press"; messageId: number; data: string };

const TEST_USER = { id: Number(TEST_CUSTOMER_ID), is_bot: false as const, first_name: TEST_CUSTOMER_NAME, language_code: "en" };
const TEST_CHAT = { id: Number(TEST_CUSTOMER_ID), type: "private" as const, first_name: TEST_CUSTOMER_NAME };

/** A turn at a time on this server: the test customer's updates, like a real customer's, are handled in order. */
let turns: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const next = turns.then(task, task);
  turns = next.catch(() => {});
  return next;
}

/** The largest picture the chat keeps inline (a payment QR code is a few kilobytes). */
const MAX_INLINE_PHOTO_BYTES = 256 * 1024;

type RawButton = { text?: unknown; callback_data?: unknown; url?: unknown; web_app?: { url?: unknown } };

/** Where a button leads: a link's address, or the page a Mini App button opens (the storefront), which the preview opens as a link. */
function addressOf(button: RawButton): string | undefined {
  const address = button.url ?? button.web_app?.url;
  return typeof address === "string" ? address : undefined;
}

function keyboardOf(markup: unknown): SimulatorButton[][] | null {
  const rows = (markup as { inline_keyboard?: RawButton[][] } | undefined)?.inline_keyboard;
  if (!Array.isArray(rows)) return null;
  return rows.map((row) =>
    (Array.isArray(row) ? row : []).map((button) => {
      const url = addressOf(button);
      return {
        text: String(button.text ?? ""),
        ...(typeof button.callback_data === "string" ? { data: button.callback_data } : {}),
        ...(url === undefined ? {} : { url }),
      };
    }),
  );
}

/** What the bot sends as a photo, as an address the browser can load. */
async function photoAddress(deps: BotDeps, photo: unknown, uploads: WeakMap<object, string>): Promise<string | null> {
  if (photo instanceof InputFile) {
    const data = (photo as unknown as { fileData: unknown }).fileData;
    if (data && typeof data === "object" && uploads.has(data)) return uploads.get(data)!;
    if (Buffer.isBuffer(data) && data.length <= MAX_INLINE_PHOTO_BYTES) {
      const type = data.subarray(0, 4).toString("hex") === "89504e47" ? "image/png" : "image/jpeg";
      return `data:${type};base64,${data.toString("base64")}`;
    }
    return null;
  }
  if (typeof photo !== "string") return null;
  if (photo.startsWith("/objects/") || /^https?:\/\//.test(photo)) return photo;
  // A file_id the real bot cached for a product image: the image it stands for.
  const [cached] = await deps.db.select({ imagePath: telegramFileCache.imagePath }).from(telegramFileCache).where(eq(telegramFileCache.fileId, photo));
  return cached?.imagePath ?? null;
}

/** Storage that remembers which product image an upload's bytes came from, so the chat shows the shop's own image. */
function rememberingStorage(storage: ObjectStorage, uploads: WeakMap<object, string>): ObjectStorage {
  return Object.assign(Object.create(storage) as ObjectStorage, {
    async get(objectId: string) {
      const object = await storage.get(objectId);
      if (object) uploads.set(object.data, `/objects/${objectId}`);
      return object;
    },
  });
}

function messageAnswer(messageId: number, now: Date, fields: Record<string, unknown>): Message {
  return { message_id: messageId, date: Math.floor(now.getTime() / 1000), chat: TEST_CHAT, ...fields } as unknown as Message;
}

const NOT_FOUND = { ok: false, error_code: 400, description: "Bad Request: message to edit not found" };

/** Answers the bot's calls as Telegram would, writing what they show into the simulator's chat. */
function captureCalls(bot: Bot<BotContext>, deps: BotDeps, events: SimulatorEvent[], uploads: WeakMap<object, string>) {
  bot.api.config.use(async (_previous, method, payload) => {
    const body = (payload ?? {}) as Record<string, unknown>;
    const now = deps.now();
    const messageId = Number(body.message_id);
    const answer = (result: unknown) => ({ ok: true, result }) as never;
    switch (method) {
      case "sendMessage": {
        const text = String(body.text ?? "");
        const id = await addSimulatorMessage(deps.db, { fromCustomer: false, text, keyboard: keyboardOf(body.reply_markup) }, now);
        events.push({ type: "message", messageId: id, text, alert: false });
        return answer(messageAnswer(id, now, { text }));
      }
      case "sendPhoto": {
        const caption = String(body.caption ?? "");
        const photo = await photoAddress(deps, body.photo, uploads);
        const id = await addSimulatorMessage(deps.db, { fromCustomer: false, text: caption, photo, keyboard: keyboardOf(body.reply_markup) }, now);
        events.push({ type: "photo", messageId: id, text: caption, alert: false });
        // A file_id only for a photo sent by file_id: an upload answers none, so the real bot's file cache is never given a made-up one.
        const sizes = typeof body.photo === "string" ? [{ file_id: body.photo, file_unique_id: `simulated-${id}`, width: 512, height: 512 }] : [];
        return answer(messageAnswer(id, now, { photo: sizes, caption }));
      }
      case "sendMediaGroup": {
        // An album (a product's photos, issue 23): one photo message each, the caption on the first.
        const media = Array.isArray(body.media) ? (body.media as { media?: unknown; caption?: unknown }[]) : [];
        const sent: Message[] = [];
        for (const item of media) {
          const caption = typeof item.caption === "string" ? item.caption : "";
          const photo = await photoAddress(deps, item.media, uploads);
          const id = await addSimulatorMessage(deps.db, { fromCustomer: false, text: caption, photo }, now);
          events.push({ type: "photo", messageId: id, text: caption, alert: false });
          const sizes = typeof item.media === "string" ? [{ file_id: item.media, file_unique_id: `simulated-${id}`, width: 512, height: 512 }] : [];
          sent.push(messageAnswer(id, now, { photo: sizes, caption, media_group_id: `simulated-album-${sent[0]?.message_id ?? id}` }));
        }
        return answer(sent);
      }
      case "editMessageText":
      case "editMessageCaption":
      case "editMessageReplyMarkup": {
        const text = method === "editMessageText" ? String(body.text ?? "") : method === "editMessageCaption" ? String(body.caption ?? "") : undefined;
        const keyboard = keyboardOf(body.reply_markup);
        if (!(await editSimulatorMessage(deps.db, messageId, { text, keyboard }))) return NOT_FOUND as never;
        events.push({ type: "edit", messageId, text: text ?? null, alert: false });
        return answer(messageAnswer(messageId, now, text === undefined ? {} : { text }));
      }
      case "deleteMessage":
        if (await deleteSimulatorMessage(deps.db, messageId)) events.push({ type: "delete", messageId, text: null, alert: false });
        return answer(true);
      case "answerCallbackQuery":
        if (typeof body.text === "string" && body.text !== "") {
          events.push({ type: "notice", messageId: null, text: body.text, alert: body.show_alert === true });
        }
        return answer(true);
      default:
        // Chat actions and the like: nothing to show.
        return answer(true);
    }
  });
}

/** The pressed message as Telegram puts it in a callback query: the bot edits it, or deletes a photo card. */
function pressedMessage(message: SimulatorMessage, botInfo: UserFromGetMe): Message {
  const base = {
    message_id: message.messageId,
    date: Math.max(1, Math.floor(Date.parse(message.createdAt) / 1000)),
    chat: TEST_CHAT,
    from: { id: botInfo.id, is_bot: true, first_name: botInfo.first_name, username: botInfo.username },
    ...(message.keyboard ? { reply_markup: { inline_keyboard: message.keyboard.map((row) => row.map((b) => (b.data ? { text: b.text, callback_data: b.data } : { text: b.text, url: b.url ?? "" }))) } } : {}),
  };
  return (message.photo
    ? { ...base, photo: [{ file_id: "simulated", file_unique_id: "simulated", width: 512, height: 512 }], caption: message.text }
    : { ...base, text: message.text }) as unknown as Message;
}

function simulatorBotInfo(botName: string, known: UserFromGetMe | null | undefined): UserFromGetMe {
  return (
    known ?? {
      id: 1,
      is_bot: true,
      first_name: botName,
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
    }
  );
}

/** A command typed in the simulator gets the entity Telegram adds, so the bot sees it as one. */
function commandEntities(text: string) {
  const command = /^\/\w+(@\w+)?/.exec(text);
  return command ? [{ type: "bot_command" as const, offset: 0, length: command[0].length }] : undefined;
}

/**
 * One turn of the test customer: their message or button press goes through the real bot, whose
 * answers are captured into the simulator's chat. Answers what the bot did, in order.
 */
export function simulateTurn(
  deps: BotDeps,
  action: SimulatorAction,
  options: { log: BotLogger; botInfo?: UserFromGetMe | null },
): Promise<SimulatorEvent[]> {
  return oneAtATime(async () => {
    const settings = await getBotSettings(deps.db, deps.secrets);
    if (!settings) throw conflict(NO_SETTINGS_MESSAGE);
    const botInfo = simulatorBotInfo(settings.botName, options.botInfo);
    const uploads = new WeakMap<object, string>();
    const simulatorDeps: BotDeps = { ...deps, storage: rememberingStorage(deps.storage, uploads) };
    // The token is never used to reach Telegram here; grammY only wants one to build its client.
    const bot = createBot(simulatorDeps, { ...settings, botToken: settings.botToken || "0:simulator" }, {
      log: options.log,
      botInfo,
      retry: false,
      servesTestCustomer: true,
    });
    const events: SimulatorEvent[] = [];
    captureCalls(bot, simulatorDeps, events, uploads);

    const now = deps.now();
    const date = Math.floor(now.getTime() / 1000);
    let update: Update;
    if (action.kind === "text") {
      const messageId = await addSimulatorMessage(deps.db, { fromCustomer: true, text: action.text }, now);
      update = {
        update_id: messageId,
        message: { message_id: messageId, date, chat: TEST_CHAT, from: TEST_USER, text: action.text, entities: commandEntities(action.text) },
      } as Update;
    } else {
      const message = await getSimulatorMessage(deps.db, action.messageId);
      if (!message || message.fromCustomer) throw notFound("That message is no longer in the chat.");
      // Telegram only sends presses of buttons that are there: nor does the simulator.
      const button = message.keyboard?.flat().find((candidate) => candidate.data === action.data);
      if (!button) throw conflict("That button is not on this message (any more).");
      update = {
        update_id: Date.now(),
        callback_query: {
          id: `simulated-${now.getTime()}`,
          from: TEST_USER,
          chat_instance: "simulator",
          data: action.data,
          message: pressedMessage(message, botInfo),
        },
      } as Update;
    }
    await bot.handleUpdate(update);
    return events;
  });
}

/** "Reset test customer", between turns: a turn in progress finishes first, and none writes into the fresh chat. */
export function resetSimulator(deps: Pick<BotDeps, "db" | "now">): Promise<{ deletedOrders: number }> {
  return oneAtATime(() => resetTestCustomer(deps.db, deps.now()));
}
