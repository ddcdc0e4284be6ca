import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerMessages } from "../db/schema";
import { addToCart, getCart } from "../shop/ordering";
import {
  CHECKOUT_STAGES,
  ConversationStateSchema,
  getConversation,
  IDLE,
  saveConversation,
  type CheckoutDraft,
  type CheckoutStage,
  type ConversationState,
} from "../shop/customers/conversations";
import { startShopWithConfiguredBot, type Customer, type ShopWithBot } from "../../test-support/bot-harness";
import { insertProduct } from "../../test-support/factories";
import { FAKE_BOT_INFO, startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { HELP_TEXT, LEFT_SUPPORT_TEXT, NOTHING_TO_CANCEL_TEXT, SHOP_COMMANDS, type ShopCommand } from "./features/commands";
import { CONFIRM_FORGET_BUTTON, FORGET_CONFIRM_TEXT } from "./features/my-data";
import { OPTED_OUT_REPLY } from "./features/opt-out";
import { BAD_CODE_REPLY, NO_CODE_REPLY } from "./features/owner-link";
import { MAIN_MENU_TEXT } from "./features/start";

// Commands inside a conversation (issue 20, item 4): every command the bot offers is itself in every
// conversation step (Contact Support, each checkout stage), in every spelling grammY takes; it leaves
// the step, so the next message is not swallowed, and the cart stays. The steps and commands are
// read from the code, so a new one is covered here without editing a list.

const FALLBACK_TEXT = "Sorry, I didn't understand that. Please choose an option from the menu:";
const CHECKOUT_CANCELLED_TEXT = "Checkout cancelled. Your cart is kept for later.";
const SUPPORT_THANKS = /^Thank you, your message has been sent/;

/** What a step swallowing a message answers: never the answer to a command. */
const SWALLOWED = [
  "Please send your message to support as text",
  "Please send your answer as a text message",
  "Please choose one of the buttons below",
  "Thank you, your message has been sent",
];

/** The draft field each checkout stage asks for: the draft at a stage holds those of the stages before it. */
const FIELD_ASKED_AT: Record<CheckoutStage, keyof CheckoutDraft> = {
  name: "name",
  street: "streetAddress",
  postcode: "postcode",
  contact: "contact",
  postage: "postageOptionId",
  coin: "coin",
  confirm: "quotedTotalPence",
  coupon: "couponCode",
};
const FULL_DRAFT: Required<CheckoutDraft> = {
  name: "Ann Example",
  streetAddress: "1 High Street, Leeds",
  postcode: "LS1 4AP",
  contact: "@ann",
  postageOptionId: null,
  coin: "BTC",
  quotedTotalPence: 800,
  couponCode: "SUMMER10",
};

function draftAt(stage: CheckoutStage): CheckoutDraft {
  const before = CHECKOUT_STAGES.slice(0, CHECKOUT_STAGES.indexOf(stage));
  return Object.fromEntries(before.map((s) => [FIELD_ASKED_AT[s], FULL_DRAFT[FIELD_ASKED_AT[s]]]));
}

/** Every conversation state the bot stores, read from its schema: each step, and each checkout stage. */
function everyState(): { name: string; state: ConversationState }[] {
  return ConversationStateSchema.options.flatMap((option) => {
    const step = option.shape.step.value;
    switch (step) {
      case "idle":
        return [{ name: "idle", state: IDLE }];
      case "support":
        return [{ name: "support", state: { step: "support" } }];
      case "checkout":
        return CHECKOUT_STAGES.map((stage) => ({ name: `checkout ${stage}`, state: { step: "checkout", stage, draft: draftAt(stage) } }));
      default:
        throw new Error(`This test has no way to put a customer in the step "${String(step)}": add one`);
    }
  });
}

type Command = ShopCommand | "link";

/** Each command's own answer (the last message the customer sees), by the step it was sent in. */
const ANSWERS: Record<Command, (state: ConversationState, args: string) => string> = {
  start: () => "Welcome!",
  menu: () => MAIN_MENU_TEXT,
  help: () => HELP_TEXT,
  cancel: (state) => ({ checkout: CHECKOUT_CANCELLED_TEXT, support: LEFT_SUPPORT_TEXT, idle: NOTHING_TO_CANCEL_TEXT })[state.step],
  stop: () => OPTED_OUT_REPLY,
  forgetme: () => FORGET_CONFIRM_TEXT,
  language: () => "This shop speaks English only.",
  // The owner's /link (features/owner-link.ts): no code issued here, so any code is refused.
  link: (_, args) => (args ? BAD_CODE_REPLY : NO_CODE_REPLY),
};

const COMMANDS: Command[] = [...SHOP_COMMANDS.map((c) => c.command), "link"];

/** The spellings grammY's command() takes: plain, addressed to the bot (any case), with arguments. */
const SPELLINGS: { text: (command: string) => string; args: string }[] = [
  { text: (c) => `/${c}`, args: "" },
  { text: (c) => `/${c}@${FAKE_BOT_INFO.username}`, args: "" },
  { text: (c) => `/${c}@${FAKE_BOT_INFO.username.toUpperCase()}`, args: "" },
  { text: (c) => `/${c} 123456 and more`, args: "123456 and more" },
  { text: (c) => `/${c}@${FAKE_BOT_INFO.username}   123456`, args: "123456" },
];

const STATES = everyState();

describe("commands in every conversation step", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let productId: string;
  let nextCustomerId = 96_000_000;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithConfiguredBot({ telegram, botToken: "7000000031:commands-test-token" });
    productId = (await insertProduct(shop.server.deps.db, { name: "Mug", price: "8.00", stock: 1000 })).id;
  });
  afterAll(async () => {
    await shop?.close();
    await telegram?.close();
  });

  /** A new customer (so nothing of an earlier case carries over) with a mug in the cart, in `state`. */
  async function customerIn(state: ConversationState): Promise<Customer> {
    const { db } = shop.server.deps;
    const customer = shop.customer(nextCustomerId++);
    await addToCart(db, customer.id, productId, 1);
    await saveConversation(db, customer.id, state);
    return customer;
  }

  /** The texts the bot sent or edited in this customer's chat since call `from`. */
  const textsSince = (customer: Customer, from: number) =>
    telegram.calls
      .slice(from)
      .filter((c) => (c.method === "sendMessage" || c.method === "editMessageText") && String(c.payload.chat_id) === customer.id)
      .map((c) => String(c.payload.text));

  async function storedMessages(customer: Customer) {
    return shop.server.deps.db.select().from(customerMessages).where(eq(customerMessages.telegramUserId, customer.id));
  }

  it("covers every step and command the code has, each command in every spelling", () => {
    expect(STATES.map((s) => s.name)).toEqual(expect.arrayContaining(["idle", "support", "checkout name", "checkout confirm"]));
    expect(COMMANDS).toEqual(expect.arrayContaining(["start", "help", "forgetme", "stop", "cancel", "link"]));
    // The turning spelling below reaches every spelling of every command while there are at least as many steps.
    expect(STATES.length).toBeGreaterThanOrEqual(SPELLINGS.length);
  });

  it("every command registered anywhere in the bot is in SHOP_COMMANDS (or is the owner's /link)", () => {
    const dir = import.meta.dirname;
    const sources = [...readdirSync(dir), ...readdirSync(path.join(dir, "features")).map((f) => path.join("features", f))].filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"),
    );
    const registered = new Set<string>();
    for (const file of sources) {
      const text = readFileSync(path.join(dir, file), "utf8");
      for (const call of text.matchAll(/\.command\(([^,)]*)/g)) {
        // A literal name or a list of them; anything else would hide a command from this test.
        const names = [...call[1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
        expect(names.length, `${file}: .command(${call[1]}) names its command with a string literal`).toBeGreaterThan(0);
        for (const name of names) registered.add(name);
      }
    }
    expect([...registered].sort()).toEqual([...COMMANDS].sort());
  });

  // Every step × every command. The spelling turns with the step, so each command is also sent in
  // every spelling, in some step (all 5 spellings in all 9 steps would be 5 times slower for little more).
  // One test per step; its cases, one new customer each, run side by side (the inbox serves different
  // customers at once), which keeps this cross product fast.
  it.each(STATES.map(({ name, state }, index) => [name, state, index] as const))(
    "in %s, every command answers as the command, leaves the step and keeps the cart",
    async (_, state, stateIndex) => {
      const cases = COMMANDS.map((command, commandIndex) => {
        const spelling = SPELLINGS[(stateIndex + commandIndex) % SPELLINGS.length]!;
        return { command, text: spelling.text(command), args: spelling.args };
      });
      await Promise.all(
        cases.map(async ({ command, text, args }) => {
          const customer = await customerIn(state);
          const from = telegram.calls.length;
          await customer.send(text);

          expect(customer.text(), text).toBe(ANSWERS[command](state, args));
          for (const sent of textsSince(customer, from)) {
            for (const swallowed of SWALLOWED) expect(sent, text).not.toContain(swallowed);
          }
          expect(await storedMessages(customer), text).toHaveLength(0);
          // Left the step: the next message is not taken for a support message or a checkout answer.
          expect(await getConversation(shop.server.deps.db, customer.id), text).toEqual(IDLE);
          expect((await getCart(shop.server.deps.db, customer.id)).lines, text).toHaveLength(1);
        }),
      );
    },
  );

  // Telegram marks these as commands; the bot knows none of them as its own. grammY's command() is
  // case-sensitive and ignores a command addressed to another bot.
  const UNKNOWN = ["/unknowncmd", "/FORGETME", "/forgetme@other_shop_bot", "/forgetmenow", "/help_me please", "/start@test_shop_bo"];

  // Two of them in each step, in turn: each is sent in three steps.
  it.each(STATES.map(({ name, state }, index) => [name, state, index] as const))(
    "in %s, a command the bot does not know gets the fallback answer, as outside a conversation, and is never stored",
    async (_, state, stateIndex) => {
      const texts = [UNKNOWN[(2 * stateIndex) % UNKNOWN.length]!, UNKNOWN[(2 * stateIndex + 1) % UNKNOWN.length]!];
      await Promise.all(
        texts.map(async (text) => {
          const customer = await customerIn(state);
          await customer.send(text);
          expect(customer.text(), text).toBe(FALLBACK_TEXT);
          expect(await storedMessages(customer), text).toHaveLength(0);
          expect(await getConversation(shop.server.deps.db, customer.id), text).toEqual(IDLE);
          expect((await getCart(shop.server.deps.db, customer.id)).lines, text).toHaveLength(1);
        }),
      );
    },
  );

  it("takes text that merely starts with a slash as a message in Contact Support", async () => {
    const customer = await customerIn({ step: "support" });
    const texts = ["/ hello, where is my parcel?", "/", "//", "/😀 thanks", "/ /forgetme"];
    for (const text of texts) {
      await customer.send(text);
      expect(customer.text()).toMatch(SUPPORT_THANKS);
    }
    expect((await storedMessages(customer)).map((m) => m.message)).toHaveLength(texts.length);
    expect(await getConversation(shop.server.deps.db, customer.id)).toEqual({ step: "support" });
  });

  it("a customer writing to support can send /forgetme, erase their data, and is not kept in support", async () => {
    const { db } = shop.server.deps;
    const customer = shop.customer(nextCustomerId++, "writer");
    await customer.send("/start");
    await customer.press("Contact Support");
    await customer.send("Hello, please forget me");
    expect(customer.text()).toMatch(SUPPORT_THANKS);
    expect(await storedMessages(customer)).toHaveLength(1);

    await customer.send("/forgetme");
    expect(customer.text()).toBe(FORGET_CONFIRM_TEXT);
    await customer.press(CONFIRM_FORGET_BUTTON);
    expect(customer.text()).toMatch(/^Done: your data is erased\./);
    expect(await storedMessages(customer)).toHaveLength(0);

    // The next message is not a support message: support was left with the command.
    await customer.send("thanks");
    expect(customer.text()).toBe(FALLBACK_TEXT);
    expect(await storedMessages(customer)).toHaveLength(0);
    expect(await getConversation(db, customer.id)).toEqual(IDLE);
  });

  it("a command halfway through the checkout drops the address typed so far but not the cart", async () => {
    const { db } = shop.server.deps;
    const customer = shop.customer(nextCustomerId++);
    await customer.send("/start");
    await customer.pressData(`add:${productId}:2`);
    await customer.pressData("checkout");
    await customer.send("Ann Example");
    await customer.send("1 High Street, Leeds");
    expect(customer.text()).toMatch(/^Checkout: postcode/);

    await customer.send("/help");
    expect(customer.text()).toBe(HELP_TEXT);
    // The stored step (and the draft's sealed address with it) is gone, not left behind.
    expect(await getConversation(db, customer.id)).toEqual(IDLE);
    await customer.send("LS1 4AP");
    expect(customer.text()).toBe(FALLBACK_TEXT);

    await customer.press("My Cart");
    expect(customer.text()).toMatch(/2 × £8\.00 = £16\.00/);
    await customer.press("✅ Checkout");
    expect(customer.text()).toMatch(/^Checkout: delivery name/);
  });
});
