import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_OPTION_VALUES, MAX_PRODUCT_OPTIONS, type Product, type SimulatorState } from "../../contract";
import { orderItems } from "../db/schema";
import type { CatalogueProduct, VariantRow } from "../shop/catalogue";
import { MAX_CART_QUANTITY } from "../shop/ordering";
import { restockText } from "../shop/customers/broadcasts";
import { silentLog, startShopWithBot, type Customer, type ShopWithBot } from "../../test-support/bot-harness";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../../test-support/payments-setup";
import { createBroadcastSender, type BroadcastSender } from "./broadcast-sender";
import { NOTIFY_ME_BUTTON, NOTIFY_ME_NOTICE, OPTION_GONE_NOTICE, optionsKeyboard } from "./features/catalogue";
import { MAX_CALLBACK_BYTES } from "./ui";
import { CHOICE_SOURCE, decodeChoice, encodeChoice, type Choice } from "./variant-choice";

// Product variants in the bot (issue 23): one row of buttons per option on the card, sold-out values
// marked and refused with their reason, the chosen variant added to the cart, named everywhere after
// ("Acceptance Tee (M / Black)"), bought through the gateway, and "Notify me" per variant.

const TOKEN = "7000000123:variants-test-token";
const TEE = "Acceptance Tee";
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

type VariantSpec = { size: string; colour: string; stock: number; sku?: string; price?: string; isActive?: boolean };

// S and M in both colours, L only in Black and sold out, M / Black dearer: enough for every mark.
const TEE_VARIANTS: VariantSpec[] = [
  { size: "S", colour: "Black", stock: 2, sku: "TEE-S-BLK" },
  { size: "S", colour: "White", stock: 0, sku: "TEE-S-WHT" },
  { size: "M", colour: "Black", stock: 3, sku: "TEE-M-BLK", price: "22.00" },
  { size: "M", colour: "White", stock: 1, sku: "TEE-M-WHT" },
  { size: "L", colour: "Black", stock: 0, sku: "TEE-L-BLK" },
];

describe("product variants in the bot", () => {
  let telegram: FakeTelegram;
  let gateway: FakeNowPayments;
  let shop: ShopWithBot;
  let sender: BroadcastSender;
  let admin: string;
  let teeId: string;

  async function api<T = { id: string }>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await shop.server.request(method, url, { cookie: admin, body });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as T;
  }

  /** The owner's save of the Options & variants section: these variants, each untouched one kept as the database has it. */
  async function saveVariants(specs: VariantSpec[]) {
    const current = await api<Product>("GET", `/api/products/${teeId}`);
    const stockOf = (spec: VariantSpec) => current.variants.find((v) => v.optionValues.Size === spec.size && v.optionValues.Colour === spec.colour)?.stock;
    await api("PUT", `/api/products/${teeId}/variants`, {
      options: [
        { name: "Size", values: ["S", "M", "L"] },
        { name: "Colour", values: ["Black", "White"] },
      ],
      variants: specs.map((spec) => ({
        optionValues: { Size: spec.size, Colour: spec.colour },
        sku: spec.sku ?? null,
        price: spec.price ?? null,
        stock: spec.stock,
        isActive: spec.isActive ?? true,
        ...(stockOf(spec) === undefined ? {} : { expectedStock: stockOf(spec) }),
      })),
    });
  }

  /** One variant's stock changed, the others untouched. */
  async function setStock(size: string, colour: string, stock: number) {
    const current = await api<Product>("GET", `/api/products/${teeId}`);
    await saveVariants(
      TEE_VARIANTS.filter((spec) => current.variants.some((v) => v.optionValues.Size === spec.size && v.optionValues.Colour === spec.colour)).map((spec) => {
        const now = current.variants.find((v) => v.optionValues.Size === spec.size && v.optionValues.Colour === spec.colour)!;
        return { ...spec, stock: spec.size === size && spec.colour === colour ? stock : now.stock };
      }),
    );
  }

  const variantId = async (size: string, colour: string) =>
    (await api<Product>("GET", `/api/products/${teeId}`)).variants.find((v) => v.optionValues.Size === size && v.optionValues.Colour === colour)!.id;

  async function openTee(customer: Customer) {
    await customer.send("/start");
    await customer.pressData(`prod:${teeId}:1`);
  }

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    gateway = await startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY });
    shop = await startShopWithBot({ telegram, config: { nowpaymentsApiUrl: gateway.url } });
    admin = await shop.server.login();
    await api("POST", "/api/bot-settings", {
      botName: "Tee Shop",
      botToken: TOKEN,
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Welcome to the Tee Shop!",
      faqContent: "Tees.",
      nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY,
      nowpaymentsIpnSecret: TEST_IPN_SECRET,
    });
    const clothing = await api("POST", "/api/categories", { name: "Clothing" });
    const tee = await api("POST", "/api/products", {
      name: TEE,
      description: "Soft cotton.",
      price: "20.00",
      stock: 0,
      categoryId: clothing.id,
      bulkPricing: [{ minQuantity: 3, price: 18 }],
    });
    teeId = tee.id;
    await saveVariants(TEE_VARIANTS);
    await shop.bot.started();
    sender = createBroadcastSender(shop.server.deps, { log: silentLog, soleInstance: true, idlePollMs: 100 });
    sender.start();
  });
  afterAll(async () => {
    await sender?.stop();
    await shop?.close();
    await gateway?.close();
    await telegram?.close();
  });

  it("lets a customer pick M then Black, add it, see it named in the cart and summary, pay, and find it in My Orders", async () => {
    const alice = shop.customer(96_000_001, "alice");
    await alice.send("/start");
    await alice.press("Browse Products");
    await alice.press("Clothing");
    await alice.press(`${TEE} · £20.00`);
    expect(alice.text()).toBe(
      [TEE, "Soft cotton.", "Size: not chosen yet\nColour: not chosen yet\n\nPrice: from £20.00\n\nPlease choose Size and Colour."].join("\n\n"),
    );
    // One row per option; L has nothing in stock; no way to add before every option is chosen.
    const rows = () => (alice.screen().reply_markup?.inline_keyboard ?? []).map((row) => row.map((b) => b.text));
    expect(rows()).toEqual([["S", "M", "L ✖"], ["Black", "White"], ["« Back", "🛒 My Cart"]]);

    await alice.press("M");
    expect(rows().slice(0, 2)).toEqual([["S", "✅ M", "L ✖"], ["Black", "White"]]);
    expect(alice.text()).toContain("Size: M\nColour: not chosen yet\n\nPrice: from £20.00\n\nPlease choose Colour.");

    await alice.press("Black");
    expect(rows().slice(0, 2)).toEqual([["S", "✅ M", "L ✖"], ["✅ Black", "White"]]);
    // Its own price, the product's bulk tier taking off what it takes off the product's price; no SKU.
    expect(alice.text()).toBe(
      [
        TEE,
        "Soft cotton.",
        "Size: M\nColour: Black\n\nPrice: £22.00\nBulk pricing:\n• 3+ for £20.00\nStock: 3 available\n\nQuantity: 1 × £22.00 = £22.00",
      ].join("\n\n"),
    );
    expect(alice.text()).not.toContain("TEE-M-BLK");
    expect(alice.buttons()).toEqual(expect.arrayContaining(["➖", "Qty: 1", "➕", "3+", "Add 1 to cart"]));

    await alice.press("➕");
    expect(alice.text()).toMatch(/Quantity: 2 × £22\.00 = £44\.00$/);
    let from = telegram.calls.length;
    await alice.press("Add 2 to cart");
    expect(alice.notices(from)).toEqual([`Added 2 × ${TEE} (M / Black) to your cart. You now have 2 in your cart.`]);

    await alice.press("🛒 My Cart");
    expect(alice.text()).toBe(`My Cart\n\n1. ${TEE} (M / Black)\n    2 × £22.00 = £44.00\n\nSubtotal: £44.00`);
    // + and - work on the variant's line; three reach the bulk tier.
    await alice.press("➕");
    expect(alice.text()).toMatch(/3 × £20\.00 = £60\.00\n\nSubtotal: £60\.00$/);
    await alice.press("➖");
    expect(alice.text()).toMatch(/2 × £22\.00 = £44\.00/);
    // The line's own button opens the card with its variant chosen.
    await alice.press(/^2 × Acceptance Tee/);
    expect(alice.text()).toContain("Size: M\nColour: Black");
    expect(alice.buttons()).toContain("✅ Black");
    await alice.press("🛒 My Cart");

    await alice.press("✅ Checkout");
    await alice.send("Alice Smith");
    await alice.send("12 High Street, London");
    await alice.send("SW1A 1AA");
    await alice.press("Skip");
    await alice.press("Bitcoin (BTC)");
    expect(alice.text()).toContain(`2 × ${TEE} (M / Black) (£22.00 each): £44.00`);
    from = telegram.calls.length;
    await alice.press("✅ Confirm and pay");
    expect(gateway.created).toHaveLength(1);
    const payment = [...gateway.payments.values()][0]!;
    expect(payment.price_amount).toBe(44);
    expect(telegram.calls.slice(from).some((c) => c.method === "sendPhoto" && String(c.payload.caption).includes(payment.pay_address))).toBe(true);
    const [item] = await shop.server.database.db.select().from(orderItems).where(eq(orderItems.orderId, payment.order_id));
    expect(item).toMatchObject({ productName: TEE, variantLabel: "M / Black", sku: "TEE-M-BLK", quantity: 2 });
    expect((await api<Product>("GET", `/api/products/${teeId}`)).variants.find((v) => v.sku === "TEE-M-BLK")!.stock).toBe(1);

    await alice.send("/start");
    await alice.press("My Orders");
    expect(alice.text()).toContain(`Order #${payment.order_id.slice(0, 8)}`);
    expect(alice.text()).toContain(`• 2 × ${TEE} (M / Black)`);
  });

  it("marks sold-out values and refuses them with the reason, and a combination that does not exist", async () => {
    const bob = shop.customer(96_000_002, "bob");
    await openTee(bob);
    const card = bob.screen();

    // White is sold out in S: marked once S is chosen, and pressed, says so and adds nothing.
    await bob.press("S");
    expect(bob.buttons().slice(0, 5)).toEqual(["✅ S", "M", "L ✖", "Black", "White ✖"]);
    let from = telegram.calls.length;
    await bob.press("White ✖");
    expect(bob.notices(from)).toEqual(["S / White is sold out"]);
    expect(bob.text()).toContain("Size: S\nColour: White");
    expect(bob.text()).toMatch(/Out of stock$/);
    expect(bob.buttons().some((b) => b.startsWith("Add"))).toBe(false);
    expect(bob.buttons()).toContain(NOTIFY_ME_BUTTON);

    // There is no L in White: refused as an alert, and the card stays as it was.
    from = telegram.calls.length;
    const before = bob.text();
    await bob.press("L ✖");
    const answer = telegram.calls.slice(from).find((c) => c.method === "answerCallbackQuery")!;
    expect(answer.payload).toMatchObject({ text: "No L in White", show_alert: true });
    expect(bob.text()).toBe(before);
    expect(bob.screen().message_id).toBe(card.message_id);

    // Choosing White first, L is marked and refused the same way.
    await bob.pressData(`po:${teeId}:-.-:1.1`);
    expect(bob.buttons().slice(0, 5)).toEqual(["S ✖", "M", "L ✖", "Black", "✅ White"]);
    from = telegram.calls.length;
    await bob.press("L ✖");
    expect(bob.notices(from)).toEqual(["No L in White"]);
    expect(bob.buttons()).toContain("✅ White");

    // Pressing a chosen value again unchooses it.
    await bob.press("✅ White");
    expect(bob.text()).toContain("Size: not chosen yet\nColour: not chosen yet");

    // A made-up choice that does not fit the options is a fresh card, not a crash.
    from = telegram.calls.length;
    await bob.pressData(`po:${teeId}:7.7.7:0.0`);
    expect(bob.notices(from)).toEqual(["The options of this product have changed. Please choose again."]);
    expect(bob.buttons().slice(0, 3)).toEqual(["S", "M", "L ✖"]);
    // Made-up presses: a value or option past the end, a quantity on a choice not complete, a product that is not there.
    for (const made of [`po:${teeId}:-.-:0.19`, `po:${teeId}:-.-:5.0`, `po:${teeId}:2.9:0.0`]) {
      from = telegram.calls.length;
      await bob.pressData(made);
      expect(bob.notices(from), made).toEqual(["The options of this product have changed. Please choose again."]);
    }
    await bob.pressData(`pv:${teeId}:0.-:99999`);
    expect(bob.text()).toContain("Size: S\nColour: not chosen yet");
    expect(bob.buttons().some((b) => b.startsWith("Add"))).toBe(false);
    from = telegram.calls.length;
    await bob.pressData(`po:${crypto.randomUUID()}:-.-:0.0`);
    expect(bob.notices(from)).toEqual(["That product is no longer available."]);
  });

  it("alerts a customer waiting on a sold-out variant when THAT variant is restocked, not when another is", { timeout: 30_000 }, async () => {
    const cat = shop.customer(96_000_003, "cat");
    const dan = shop.customer(96_000_004, "dan");
    await openTee(cat);
    await cat.press("L ✖");
    await cat.press("Black ✖");
    expect(cat.text()).toContain("Size: L\nColour: Black");
    const card = cat.screen();
    const from = telegram.calls.length;
    await cat.press(NOTIFY_ME_BUTTON);
    expect(cat.notices(from)).toEqual([NOTIFY_ME_NOTICE]);

    await openTee(dan);
    await dan.press("S");
    await dan.press("White ✖");
    await dan.press(NOTIFY_ME_BUTTON);

    const alertsTo = (customer: Customer, text: string) =>
      telegram.callsOf("sendMessage").filter((c) => String(c.payload.chat_id) === customer.id && c.payload.text === text);
    // S / White comes back: Dan is told; Cat, waiting for L / Black, is not.
    await setStock("S", "White", 4);
    await expect.poll(() => alertsTo(dan, restockText(`${TEE} (S / White)`)).length, { timeout: 10_000, interval: 100 }).toBe(1);
    expect(telegram.callsOf("sendMessage").filter((c) => String(c.payload.chat_id) === cat.id && /back in stock/.test(String(c.payload.text)))).toEqual([]);

    await setStock("L", "Black", 2);
    await expect.poll(() => alertsTo(cat, restockText(`${TEE} (L / Black)`)).length, { timeout: 10_000, interval: 100 }).toBe(1);
    expect(alertsTo(dan, restockText(`${TEE} (L / Black)`))).toEqual([]);

    // "Notify me" pressed again on the old card shows the variant, in stock now.
    await cat.pressData(`restock:${await variantId("L", "Black")}`, card);
    expect(cat.text()).toContain("Size: L\nColour: Black");
    expect(cat.text()).toContain("Stock: 2 available");
    expect(cat.buttons()).toContain("Add 1 to cart");
  });

  it("answers politely when a button names a variant deleted since", async () => {
    const eve = shop.customer(96_000_005, "eve");
    await openTee(eve);
    await eve.press("M");
    await eve.press("White");
    expect(eve.buttons()).toContain("Add 1 to cart");
    const staleCard = eve.screen();
    const mWhite = await variantId("M", "White");

    // The owner drops M / White.
    const current = await api<Product>("GET", `/api/products/${teeId}`);
    await saveVariants(
      TEE_VARIANTS.filter((spec) => !(spec.size === "M" && spec.colour === "White")).map((spec) => ({
        ...spec,
        stock: current.variants.find((v) => v.optionValues.Size === spec.size && v.optionValues.Colour === spec.colour)!.stock,
      })),
    );

    let from = telegram.calls.length;
    await eve.press("Add 1 to cart");
    expect(eve.notices(from)).toEqual([OPTION_GONE_NOTICE]);
    expect(eve.text()).toContain("Size: not chosen yet\nColour: not chosen yet");
    expect((await api<Product>("GET", `/api/products/${teeId}`)).variants.map((v) => v.id)).not.toContain(mWhite);

    // The stale card's quantity and Notify buttons too.
    from = telegram.calls.length;
    await eve.pressData(`pv:${teeId}:1.1:2`, staleCard);
    expect(eve.notices(from)).toEqual([OPTION_GONE_NOTICE]);
    from = telegram.calls.length;
    await eve.pressData(`restock:${mWhite}`, staleCard);
    expect(eve.notices(from)).toEqual([OPTION_GONE_NOTICE]);
    // And an "Add" that does not come from a card: the product is gone as far as the customer can tell.
    from = telegram.calls.length;
    await eve.pressData(`add:${mWhite}:1`, { ...staleCard, reply_markup: undefined });
    expect(eve.notices(from)).toEqual(["That product is no longer available."]);

    // Now M is only in Black: White is marked for M, and refused with the reason.
    await openTee(eve);
    await eve.press("M");
    from = telegram.calls.length;
    await eve.press("White ✖");
    expect(eve.notices(from)).toEqual(["No White in M"]);
    // The product's own id (an "Add" from before it had options) asks for a choice.
    from = telegram.calls.length;
    await eve.pressData(`add:${teeId}:1`);
    expect(eve.notices(from)).toEqual(["Please choose the options first."]);
    expect(eve.buttons().slice(0, 5)).toEqual(["S", "M", "L", "Black", "White"]);
  });

  it("shows the option buttons in Bot Preview's chat simulator", async () => {
    const post = (url: string, body: unknown) => api<SimulatorState>("POST", url, body);
    let state = await post("/api/bot/simulator/messages", { text: "/start" });
    const press = async (text: string) => {
      for (const message of [...state.messages].reverse()) {
        const button = message.keyboard?.flat().find((b) => b.data && b.text === text);
        if (button) return (state = await post("/api/bot/simulator/presses", { messageId: message.messageId, data: button.data }));
      }
      throw new Error(`No button ${text}`);
    };
    await press("Browse Products");
    await press("Clothing");
    await press(`${TEE} · £20.00`);
    const card = () => state.messages.at(-1)!;
    expect(card().keyboard!.slice(0, 2).map((row) => row.map((b) => b.text))).toEqual([["S", "M", "L"], ["Black", "White"]]);
    await press("S");
    await press("Black");
    expect(card().text).toContain("Size: S\nColour: Black");
    expect(card().keyboard!.flat().map((b) => b.text)).toContain("Add 1 to cart");
  });

  it("shows a chosen variant's own image in place of the product's, and the product's again once unchosen", async () => {
    await shop.server.deps.storage.put("mug-blue", PNG, "image/png");
    const mug = await api("POST", "/api/products", { name: "Logo Mug", description: "", price: "8.00", stock: 0 });
    await api("PUT", `/api/products/${mug.id}/variants`, {
      options: [{ name: "Colour", values: ["Red", "Blue"] }],
      variants: [
        { optionValues: { Colour: "Red" }, stock: 2 },
        { optionValues: { Colour: "Blue" }, stock: 2, imageUrl: "/objects/mug-blue" },
      ],
    });
    const fay = shop.customer(96_000_006, "fay");
    await fay.send("/start");
    await fay.pressData(`prod:${mug.id}:1`);
    const textCard = fay.screen();
    expect(textCard.photo).toBeUndefined();

    let from = telegram.calls.length;
    await fay.press("Blue");
    const photo = telegram.calls.slice(from).find((c) => c.method === "sendPhoto")!;
    expect(Object.values(photo.files)).toEqual([expect.objectContaining({ size: PNG.length })]);
    expect(fay.text()).toContain("Colour: Blue");
    expect(telegram.messages(fay.user.id).some((m) => m.message_id === textCard.message_id)).toBe(false);

    // A quantity press keeps the photo and edits its caption.
    from = telegram.calls.length;
    await fay.press("➕");
    expect(telegram.calls.slice(from).map((c) => c.method).filter((m) => m.startsWith("send"))).toEqual([]);
    expect(fay.text()).toMatch(/Quantity: 2 × £8\.00 = £16\.00$/);

    // Red has no image of its own (nor has the mug): a text card again.
    await fay.press("Red");
    expect(fay.screen().photo).toBeUndefined();
    expect(fay.text()).toContain("Colour: Red");
  });

  it("keeps every button's callback data within Telegram's 64 bytes, for any product id and up to 3 options of 20 values", () => {
    const value = fc.string({ minLength: 1, maxLength: 40, unit: "grapheme" });
    const option = fc.record({ name: fc.string({ minLength: 1, maxLength: 40 }), values: fc.uniqueArray(value, { minLength: 1, maxLength: MAX_OPTION_VALUES }) });
    const setup = fc
      .record({
        productId: fc.uuid(),
        categoryId: fc.option(fc.uuid(), { nil: null }),
        options: fc.array(option, { minLength: 1, maxLength: MAX_PRODUCT_OPTIONS }),
        tiers: fc.array(fc.record({ minQuantity: fc.integer({ min: 2, max: MAX_CART_QUANTITY }), price: fc.constant(1) }), { maxLength: 4 }),
        stock: fc.integer({ min: 0, max: 1_000_000 }),
        quantity: fc.integer({ min: 1, max: MAX_CART_QUANTITY }),
        variantId: fc.uuid(),
      })
      .chain((base) =>
        fc.record({
          base: fc.constant(base),
          // Each option's value index, or not chosen; all chosen names one variant.
          choice: fc.tuple(...base.options.map((o) => fc.option(fc.integer({ min: 0, max: o.values.length - 1 }), { nil: null }))),
        }),
      );
    const pattern = new RegExp(`^(po:[0-9a-f-]{36}:${CHOICE_SOURCE}:\\d\\.\\d{1,2}|pv:[0-9a-f-]{36}:${CHOICE_SOURCE}:\\d{1,5}|add:[0-9a-f-]{36}:\\d{1,5}|restock:[0-9a-f-]{36}|cat:.*|cart|noop)$`);
    fc.assert(
      fc.property(setup, ({ base, choice }) => {
        const options = base.options.map((o) => ({ name: o.name, values: o.values }));
        const chosen = choice as Choice;
        const variant = {
          id: base.variantId,
          productId: base.productId,
          optionValues: Object.fromEntries(options.map((o, k) => [o.name, o.values[chosen[k] ?? 0]!])),
          stock: base.stock,
          isActive: true,
          price: null,
          imageUrl: null,
        } as unknown as VariantRow;
        const product = { id: base.productId, categoryId: base.categoryId, options, bulkPricing: base.tiers, price: "1.00" } as unknown as CatalogueProduct;
        const keyboard = optionsKeyboard({ product, variants: [variant], choice: chosen, quantity: base.quantity });
        for (const button of keyboard.inline_keyboard.flat()) {
          const data = "callback_data" in button ? button.callback_data! : "";
          expect(Buffer.byteLength(data, "utf8")).toBeLessThanOrEqual(MAX_CALLBACK_BYTES);
          expect(data).toMatch(pattern);
        }
        expect(decodeChoice(encodeChoice(chosen), options)).toEqual(chosen);
      }),
      { numRuns: 300 },
    );
    // The longest there is: 3 options at the 20th value, the 20th value of the last pressed.
    const longest = `po:${"f".repeat(8)}-ffff-ffff-ffff-${"f".repeat(12)}:19.19.19:2.19`;
    expect(Buffer.byteLength(longest)).toBeLessThanOrEqual(MAX_CALLBACK_BYTES);
  });
});
