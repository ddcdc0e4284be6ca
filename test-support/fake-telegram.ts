import http from "node:http";
import type { AddressInfo } from "node:net";

// A fake Telegram Bot API on 127.0.0.1 for tests: real HTTP, so grammY runs exactly as in
// production (pointed here through TELEGRAM_API_ROOT). It records every call, keeps the
// messages the bot sent (and edits them in place), and serves getUpdates for polling.

export const FAKE_BOT_INFO = {
  id: 7_000_000_001,
  is_bot: true as const,
  first_name: "Test Shop Bot",
  username: "test_shop_bot",
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

export type TelegramCall = {
  method: string;
  token: string;
  payload: Record<string, unknown>;
  /** Files sent as multipart parts (an upload, e.g. sendPhoto with an InputFile): field name -> the file. */
  files: Record<string, { filename: string; size: number; data: Buffer }>;
  /** When the call arrived (Date.now()): the broadcast tests measure Telegram's rate limits from these. */
  at: number;
};

/** An inline button: a press (callback_data), a link (url), or a Mini App Telegram opens in the chat (web_app). */
export type Button = { text: string; callback_data?: string; url?: string; web_app?: { url: string } };

/** A message as the bot left it: the last text or caption and keyboard it sent or edited in. */
export type FakeMessage = {
  message_id: number;
  date: number;
  chat: { id: number; type: "private" };
  text?: string;
  caption?: string;
  photo?: { file_id: string; file_unique_id: string; width: number; height: number }[];
  /** Set on every photo of one album (sendMediaGroup). */
  media_group_id?: string;
  /** The message this one answers (sent with reply_parameters). */
  reply_to_message?: FakeMessage;
  reply_markup?: { inline_keyboard?: Button[][] };
};

type Failure = { error_code: number; description: string; parameters?: Record<string, unknown> };

/** The bot's menu button (setChatMenuButton without a chat: every private chat's), as getChatMenuButton answers it. */
export type MenuButton = { type: "default" } | { type: "commands" } | { type: "web_app"; text: string; web_app: { url: string } };

export type BotCommand = { command: string; description: string };

export type WebhookState = { url: string; pending_update_count: number; last_error_date?: number; last_error_message?: string };

export type TelegramUser = { id: number; is_bot: false; first_name: string; username?: string };

export type FakeTelegram = {
  /** Base URL to use as TELEGRAM_API_ROOT (no trailing slash). */
  apiRoot: string;
  calls: TelegramCall[];
  /** Calls of one method, in order. */
  callsOf(method: string): TelegramCall[];
  /** The message most recently sent or edited in a chat (what the customer sees last). */
  screen(chatId: number | string): FakeMessage | undefined;
  /** Every message still in a chat, oldest first. */
  messages(chatId: number | string): FakeMessage[];
  /** Resolves with the first call (from index `from`) matching `predicate`; rejects after `timeoutMs`. */
  waitForCall(predicate: (call: TelegramCall) => boolean, options?: { from?: number; timeoutMs?: number }): Promise<TelegramCall>;
  /** How many long-polling getUpdates requests are waiting right now (one per polling bot instance). */
  pollsWaiting(): number;
  /** Queues an update for getUpdates (long polling); answers its update_id. */
  pushUpdate(update: Record<string, unknown>): number;
  /** The next `times` calls of `method` answer this error instead. */
  failNext(method: string, failure: Failure, times?: number): void;
  /** Every send to this chat (sendMessage, sendPhoto, sendMediaGroup) answers this error from now on, e.g. 403: the customer blocked the bot. */
  failChat(chatId: number | string, failure: Failure): void;
  /** Every call but getUpdates is answered this late (a slow Telegram); 0 again answers at once. */
  delayAnswers(ms: number): void;
  /**
   * Telegram out of reach until called again with null: "network" drops every connection unanswered
   * (long polls waiting now included), "server-error" answers every call 502. Calls are not recorded.
   */
  outage(kind: "network" | "server-error" | null): void;
  /** Every call with this token is refused 401 Unauthorized, as Telegram does for a wrong or revoked token. */
  refuseToken(token: string): void;
  /** The webhook as getWebhookInfo answers it for a token (setWebhook sets the url; tests may add delivery errors). */
  webhookInfo(token: string): WebhookState;
  /** The menu button as the last setChatMenuButton with this token left it ({type: "default"} before any). */
  menuButton(token: string): MenuButton;
  /**
   * The command menu (default scope) as setMyCommands and deleteMyCommands with this token and
   * language_code (none: the menu for every other app language) left it; [] when none, as getMyCommands answers.
   */
  commandMenu(token: string, languageCode?: string): BotCommand[];
  close(): Promise<void>;
};

let nextUpdateId = 1;
export function newUpdateId(): number {
  return nextUpdateId++;
}

const isHttps = (url: unknown) => typeof url === "string" && URL.canParse(url) && new URL(url).protocol === "https:";

function parseMultipart(body: Buffer, boundary: string) {
  const fields: Record<string, string> = {};
  const files: TelegramCall["files"] = {};
  const text = body.toString("latin1");
  for (const part of text.split(`--${boundary}`)) {
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd < 0) continue;
    const headers = part.slice(0, headerEnd);
    let value = part.slice(headerEnd + 4);
    if (value.endsWith("\r\n")) value = value.slice(0, -2);
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    if (!name) continue;
    const filename = /filename="?([^";\r\n]*)"?/i.exec(headers)?.[1];
    if (filename !== undefined) {
      const data = Buffer.from(value, "latin1");
      files[name] = { filename, size: data.length, data };
    }
    else fields[name] = Buffer.from(value, "latin1").toString("utf8");
  }
  const payload: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    payload[key] = /^[[{]/.test(value) ? JSON.parse(value) : value;
  }
  return { payload, files };
}

export async function startFakeTelegram(): Promise<FakeTelegram> {
  const calls: TelegramCall[] = [];
  const chats = new Map<string, FakeMessage[]>();
  const lastTouched = new Map<string, FakeMessage>();
  const failures = new Map<string, { failure: Failure; times: number }>();
  const chatFailures = new Map<string, Failure>();
  const updates: Record<string, unknown>[] = [];
  let updateWaiters: (() => void)[] = [];
  let callWaiters: (() => void)[] = [];
  let messageId = 1000;
  let fileCounter = 0;
  let pollsWaiting = 0;
  let answerDelayMs = 0;
  let outage: "network" | "server-error" | null = null;
  const refusedTokens = new Set<string>();
  const webhooks = new Map<string, WebhookState>();
  const menuButtons = new Map<string, MenuButton>();
  // By token, scope and language_code, as Telegram keeps a bot's command menus.
  const commandMenus = new Map<string, BotCommand[]>();
  const commandMenuKey = (token: string, scope: unknown, languageCode: unknown) =>
    JSON.stringify([token, scope ?? { type: "default" }, typeof languageCode === "string" ? languageCode : ""]);
  const webhookOf = (token: string) => {
    if (!webhooks.has(token)) webhooks.set(token, { url: "", pending_update_count: 0 });
    return webhooks.get(token)!;
  };

  const chatOf = (chatId: unknown) => {
    const key = String(chatId);
    if (!chats.has(key)) chats.set(key, []);
    return chats.get(key)!;
  };
  const findMessage = (chatId: unknown, id: unknown) => chatOf(chatId).find((m) => m.message_id === Number(id));
  const touch = (message: FakeMessage) => {
    lastTouched.set(String(message.chat.id), message);
    return message;
  };

  function newMessage(payload: Record<string, unknown>, extra: Partial<FakeMessage>): FakeMessage {
    const replyTo = (payload.reply_parameters as { message_id?: unknown } | undefined)?.message_id;
    const repliedTo = replyTo === undefined ? undefined : findMessage(payload.chat_id, replyTo);
    const message: FakeMessage = {
      message_id: ++messageId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: Number(payload.chat_id), type: "private" },
      ...extra,
      // Telegram nests the answered message one level deep, without its own reply.
      ...(repliedTo ? { reply_to_message: { ...repliedTo, reply_to_message: undefined } } : {}),
      ...(payload.reply_markup ? { reply_markup: payload.reply_markup as FakeMessage["reply_markup"] } : {}),
    };
    chatOf(payload.chat_id).push(message);
    return touch(message);
  }

  const photoSizes = (photo: unknown) => {
    const id = ++fileCounter;
    const fileId = typeof photo === "string" && !photo.startsWith("attach://") ? photo : `photo-file-${id}`;
    return [
      { file_id: `${fileId}-small`, file_unique_id: `u${id}s`, width: 90, height: 90 },
      { file_id: fileId, file_unique_id: `u${id}`, width: 800, height: 800 },
    ];
  };

  function answer(call: TelegramCall): { status: number; body: unknown } {
    const p = call.payload;
    const ok = (result: unknown) => ({ status: 200, body: { ok: true, result } });
    const badRequest = (description: string) => ({ status: 400, body: { ok: false, error_code: 400, description: `Bad Request: ${description}` } });
    // Telegram refuses the whole message when a keyboard's Mini App button is not https.
    const webAppUrls = ((p.reply_markup as FakeMessage["reply_markup"])?.inline_keyboard ?? []).flat().flatMap((b) => (b.web_app ? [b.web_app.url] : []));
    const badWebApp = webAppUrls.find((url) => !isHttps(url));
    if (badWebApp !== undefined) return badRequest(`inline keyboard button Web App URL '${badWebApp}' is invalid: Only HTTPS links are allowed`);
    switch (call.method) {
      case "getMe":
        return ok(FAKE_BOT_INFO);
      case "setWebhook":
        webhookOf(call.token).url = String(p.url ?? "");
        return ok(true);
      case "deleteWebhook":
        webhookOf(call.token).url = "";
        return ok(true);
      case "getWebhookInfo":
        return ok({ ...webhookOf(call.token) });
      case "setChatMenuButton": {
        // As Telegram: a Mini App opens only from an https address.
        const button = (p.menu_button ?? { type: "default" }) as MenuButton;
        if (button.type === "web_app" && !isHttps(button.web_app?.url)) return badRequest("BUTTON_URL_INVALID");
        if (!["default", "commands", "web_app"].includes(button.type)) return badRequest("wrong menu button type");
        if (p.chat_id === undefined) menuButtons.set(call.token, button);
        return ok(true);
      }
      case "getChatMenuButton":
        return ok(menuButtons.get(call.token) ?? { type: "default" });
      case "setMyCommands":
        commandMenus.set(commandMenuKey(call.token, p.scope, p.language_code), (p.commands ?? []) as BotCommand[]);
        return ok(true);
      case "deleteMyCommands":
        commandMenus.delete(commandMenuKey(call.token, p.scope, p.language_code));
        return ok(true);
      case "getMyCommands":
        return ok(commandMenus.get(commandMenuKey(call.token, p.scope, p.language_code)) ?? []);
      case "answerCallbackQuery":
        return ok(true);
      case "sendMessage":
        return ok(newMessage(p, { text: String(p.text) }));
      case "sendPhoto":
        return ok(newMessage(p, { caption: typeof p.caption === "string" ? p.caption : undefined, photo: photoSizes(p.photo) }));
      case "sendMediaGroup": {
        // As Telegram: 2 to 10 items, each a file_id or an attach:// part of this request; no keyboard.
        const media = Array.isArray(p.media) ? (p.media as { type?: unknown; media?: unknown; caption?: unknown }[]) : [];
        const attached = (item: { media?: unknown }) =>
          typeof item.media === "string" && (!item.media.startsWith("attach://") || item.media.slice(9) in call.files);
        if (media.length < 2 || media.length > 10 || !media.every((item) => item.type === "photo" && attached(item))) {
          return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: wrong media group" } };
        }
        const group = `album-${++fileCounter}`;
        const { reply_markup: _none, ...rest } = p;
        return ok(
          media.map((item) =>
            newMessage(rest, {
              caption: typeof item.caption === "string" ? item.caption : undefined,
              photo: photoSizes(item.media),
              media_group_id: group,
            }),
          ),
        );
      }
      case "editMessageText":
      case "editMessageCaption":
      case "editMessageReplyMarkup": {
        const message = findMessage(p.chat_id, p.message_id);
        if (!message) return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: message to edit not found" } };
        if (call.method === "editMessageText") message.text = String(p.text);
        if (call.method === "editMessageCaption") message.caption = typeof p.caption === "string" ? p.caption : undefined;
        message.reply_markup = p.reply_markup as FakeMessage["reply_markup"];
        return ok(touch(message));
      }
      case "deleteMessage": {
        const list = chatOf(p.chat_id);
        const index = list.findIndex((m) => m.message_id === Number(p.message_id));
        if (index >= 0) list.splice(index, 1);
        return ok(true);
      }
      case "getUpdates": {
        const offset = Number(p.offset ?? 0);
        while (updates.length > 0 && Number(updates[0]!.update_id) < offset) updates.shift();
        return ok(updates.slice(0, Number(p.limit ?? 100)));
      }
      default:
        return { status: 404, body: { ok: false, error_code: 404, description: "Not Found: method not found" } };
    }
  }

  async function readBody(req: http.IncomingMessage) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const type = req.headers["content-type"] ?? "";
    const boundary = /boundary=([^;]+)/.exec(type)?.[1];
    if (type.startsWith("multipart/form-data") && boundary) return parseMultipart(body, boundary);
    const text = body.toString("utf8");
    return { payload: (text ? JSON.parse(text) : {}) as Record<string, unknown>, files: {} };
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.url?.split("?")[0] ?? "");
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (!match) return send(404, { ok: false, error_code: 404, description: "Not Found" });
      if (outage === "network") return void req.socket.destroy();
      const { payload, files } = await readBody(req);
      if (outage === "server-error") return send(502, { ok: false, error_code: 502, description: "Bad Gateway" });
      const call: TelegramCall = { token: match[1]!, method: match[2]!, payload, files, at: Date.now() };

      if (call.method === "getUpdates" && Number(payload.timeout ?? 0) > 0) {
        // Long polling: hold the request until an update is queued, the timeout passes or the client leaves.
        const offset = Number(payload.offset ?? 0);
        const ready = () => updates.some((u) => Number(u.update_id) >= offset);
        if (!ready()) {
          pollsWaiting += 1;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(done, Number(payload.timeout) * 1000);
            function done() {
              clearTimeout(timer);
              updateWaiters = updateWaiters.filter((w) => w !== check);
              resolve();
            }
            function check() {
              if (ready() || outage) done();
            }
            updateWaiters.push(check);
            res.on("close", done);
          });
          pollsWaiting -= 1;
        }
        if (res.destroyed) return;
        if (outage === "network") return void req.socket.destroy();
        if (outage === "server-error") return send(502, { ok: false, error_code: 502, description: "Bad Gateway" });
      }

      calls.push(call);
      for (const waiter of callWaiters) waiter();
      if (refusedTokens.has(call.token)) return send(401, { ok: false, error_code: 401, description: "Unauthorized" });
      const chatFailure = /^send(Message|Photo|MediaGroup)$/.test(call.method) ? chatFailures.get(String(payload.chat_id)) : undefined;
      if (chatFailure) return send(chatFailure.error_code, { ok: false, ...chatFailure });
      const pending = failures.get(call.method);
      if (pending && pending.times > 0) {
        pending.times -= 1;
        return send(pending.failure.error_code, { ok: false, ...pending.failure });
      }
      if (answerDelayMs > 0 && call.method !== "getUpdates") await new Promise((resolve) => setTimeout(resolve, answerDelayMs));
      const { status, body } = answer(call);
      send(status, body);
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    callsOf: (method) => calls.filter((c) => c.method === method),
    screen: (chatId) => lastTouched.get(String(chatId)),
    messages: (chatId) => [...chatOf(chatId)],
    waitForCall(predicate, { from = 0, timeoutMs = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = calls.slice(from).find(predicate);
          if (!found) return false;
          clearTimeout(timer);
          callWaiters = callWaiters.filter((w) => w !== waiter);
          resolve(found);
          return true;
        };
        const waiter = () => void check();
        const timer = setTimeout(() => {
          callWaiters = callWaiters.filter((w) => w !== waiter);
          reject(new Error(`No matching Telegram call within ${timeoutMs} ms. Calls: ${calls.map((c) => c.method).join(", ")}`));
        }, timeoutMs);
        if (!check()) callWaiters.push(waiter);
      });
    },
    pollsWaiting: () => pollsWaiting,
    pushUpdate(update) {
      const withId = { update_id: newUpdateId(), ...update };
      updates.push(withId);
      for (const waiter of [...updateWaiters]) waiter();
      return Number(withId.update_id);
    },
    failNext(method, failure, times = 1) {
      failures.set(method, { failure, times });
    },
    failChat(chatId, failure) {
      chatFailures.set(String(chatId), failure);
    },
    delayAnswers(ms) {
      answerDelayMs = ms;
    },
    outage(kind) {
      outage = kind;
      // Long polls waiting now end as the outage says.
      if (kind) for (const waiter of [...updateWaiters]) waiter();
    },
    refuseToken(token) {
      refusedTokens.add(token);
    },
    webhookInfo: (token) => webhookOf(token),
    menuButton: (token) => menuButtons.get(token) ?? { type: "default" },
    commandMenu: (token, languageCode) => commandMenus.get(commandMenuKey(token, undefined, languageCode)) ?? [],
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// --- Updates as Telegram would send them ---

export function telegramUser(id: number, username?: string): TelegramUser {
  return { id, is_bot: false, first_name: `Customer ${id}`, ...(username ? { username } : {}) };
}

let incomingMessageId = 1;

export function textUpdate(user: TelegramUser, text: string): Record<string, unknown> {
  // Telegram's entity covers the bot's @username too when one is written (/start@shop_bot).
  const command = /^\/\w+(@\w+)?/.exec(text);
  return {
    update_id: newUpdateId(),
    message: {
      message_id: incomingMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: user.id, type: "private", first_name: user.first_name },
      from: user,
      text,
      ...(command ? { entities: [{ type: "bot_command", offset: 0, length: command[0].length }] } : {}),
    },
  };
}

export function photoUpdate(user: TelegramUser): Record<string, unknown> {
  return {
    update_id: newUpdateId(),
    message: {
      message_id: incomingMessageId++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: user.id, type: "private", first_name: user.first_name },
      from: user,
      photo: [{ file_id: "customer-photo", file_unique_id: "cp", width: 10, height: 10 }],
    },
  };
}

/** A press on an inline button: `data` as given, on `message` (the message the button sat on). */
export function callbackUpdate(user: TelegramUser, data: string, message?: FakeMessage): Record<string, unknown> {
  return {
    update_id: newUpdateId(),
    callback_query: {
      id: `cb-${newUpdateId()}`,
      from: user,
      chat_instance: "test",
      data,
      ...(message ? { message: { ...message, from: { ...FAKE_BOT_INFO } } } : {}),
    },
  };
}

export function buttonsOf(message: FakeMessage | undefined): Button[] {
  return message?.reply_markup?.inline_keyboard?.flat() ?? [];
}

/** The button whose label matches (exactly, or by a regular expression). */
export function findButton(message: FakeMessage | undefined, label: string | RegExp): Button {
  const buttons = buttonsOf(message);
  const button = buttons.find((b) => (typeof label === "string" ? b.text === label : label.test(b.text)));
  if (!button) {
    throw new Error(`No button ${String(label)} on the screen. Buttons: ${buttons.map((b) => JSON.stringify(b.text)).join(", ")}`);
  }
  return button;
}
