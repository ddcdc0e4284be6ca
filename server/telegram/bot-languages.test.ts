import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Language } from "../../contract";
import { botCustomers, botSettings, categories, orderItems, products, productVariants } from "../db/schema";
import { createBroadcast } from "../shop/customers";
import { messageLanguageOf, translatorFor } from "../shop/languages";
import { dispatchNoticeIn, paymentMessages } from "../shop/orders";
import { dispatchNotice } from "../../contract";
import { silentLog, startShopWithConfiguredBot, Customer, type ShopWithBot } from "../../test-support/bot-harness";
import { insertOrder, insertProduct } from "../../test-support/factories";
import { findButton, startFakeTelegram, telegramUser, type FakeTelegram, type TelegramUser } from "../../test-support/fake-telegram";
import { createBroadcastSender, type BroadcastSender } from "./broadcast-sender";

// The bot in the customer's language (issue 26): their Telegram app's language when the shop offers
// it, else the shop's default; /language changes it for good; the owner's catalogue names in it,
// falling back to the row's own; broadcasts in each recipient's language.

const TOKEN = "7000000026:languages-test-token";

describe("the bot speaks the customer's language", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let sender: BroadcastSender;
  let seq = 0;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    // Payments on, so a customer reaches the checkout's address questions.
    shop = await startShopWithConfiguredBot({ telegram, botToken: TOKEN });
    const { db } = shop.server.deps;
    const [clothing] = await db
      .insert(categories)
      .values({ name: "Clothing", translations: { de: { name: "Kleidung" } } })
      .returning();
    await insertProduct(db, { name: "Rain Jacket", price: "12.50", stock: 3, categoryId: clothing!.id, translations: { de: { name: "Regenjacke", description: "Hält dich trocken." } } });
    await insertProduct(db, { name: "Wool Hat", price: "8.00", stock: 2, categoryId: clothing!.id, translations: { de: { name: "Wollmütze" } } });
    await insertProduct(db, { name: "Linen Scarf", price: "9.00", stock: 4, categoryId: clothing!.id });
    await offer(["en", "de", "fr"], "en");
  });
  afterAll(async () => {
    await sender?.stop();
    await shop?.close();
    await telegram?.close();
  });

  /** The owner's Bot Settings: the languages offered and the default. */
  async function offer(languages: Language[], defaultLanguage: Language) {
    await shop.server.deps.db.update(botSettings).set({ languages, defaultLanguage });
    await shop.bot.reload();
  }

  /** A new customer whose Telegram app speaks `code`. */
  function customerSpeaking(code: string | undefined, id = 96_000_000 + ++seq): Customer {
    const user = { ...telegramUser(id), ...(code ? { language_code: code } : {}) } as TelegramUser;
    return new Customer(shop, user);
  }

  const storedLanguage = async (customer: Customer) =>
    (await shop.server.deps.db.select().from(botCustomers).where(eq(botCustomers.telegramUserId, customer.id)))[0];

  it("shows a German customer the German menu and the German names, with a missing translation falling back", async () => {
    const klaus = customerSpeaking("de-AT");
    await klaus.send("/menu");
    expect(klaus.text()).toBe("Hauptmenü: Was möchtest du tun?");
    expect(klaus.buttons()).toEqual(["🛍 Shop öffnen", "Produkte ansehen", "Warenkorb", "Meine Bestellungen", "Kundenservice", "Über uns"]);
    expect(findButton(klaus.screen(), "🛍 Shop öffnen").web_app).toEqual({ url: "https://shop.example/shop/" });
    await klaus.press("Produkte ansehen");
    expect(klaus.text()).toBe("Produkte ansehen\n\nWähle eine Kategorie:");
    await klaus.press("Kleidung");
    expect(klaus.text()).toBe("Kleidung\n\nWähle ein Produkt:");
    // Prices in the customer's locale (Intl: a no-break space before £), the currency still pounds; the scarf has no German name: its own.
    expect(klaus.buttons()).toContain("Regenjacke · 12,50\u00a0£");
    expect(klaus.buttons()).toContain("Linen Scarf · 9,00\u00a0£");
    await klaus.press(/^Regenjacke/);
    expect(klaus.text()).toMatch(/^Regenjacke\n\nHält dich trocken\.\n\nPreis: 12,50\u00a0£/);
  });

  it("stores the language with the customer; /language switches to English, and it sticks", async () => {
    const greta = customerSpeaking("de");
    await greta.send("/start");
    expect(await storedLanguage(greta)).toMatchObject({ language: "de", languageChosen: false });
    await greta.send("/language");
    expect(greta.text()).toBe("Wähle deine Sprache:");
    expect(greta.buttons()).toEqual(["English", "✅ Deutsch", "Français", "« Hauptmenü"]);
    await greta.press("English");
    expect(greta.text()).toBe("From now on I will write to you in English.\n\nMain menu: what would you like to do?");
    expect(await storedLanguage(greta)).toMatchObject({ language: "en", languageChosen: true });
    // Her app still says German: her choice wins.
    await greta.send("/menu");
    expect(greta.text()).toBe("Main menu: what would you like to do?");
    await greta.press("About");
    expect(greta.buttons()).toContain("🌐 Language");
  });

  it("gives a language the shop does not offer the default", async () => {
    const giulia = customerSpeaking("it");
    await giulia.send("/menu");
    expect(giulia.text()).toBe("Main menu: what would you like to do?");
    await offer(["en", "fr"], "fr");
    try {
      // The menu button is one for every chat: in the default language.
      await shop.bot.started();
      expect(telegram.menuButton(TOKEN)).toMatchObject({ type: "web_app", text: "🛍 Ouvrir la boutique" });
      const hans = customerSpeaking("de");
      await hans.send("/menu");
      expect(hans.text()).toBe("Menu principal : que voulez-vous faire ?");
      await hans.send("/language");
      expect(hans.buttons()).toEqual(["English", "✅ Français", "« Menu principal"]);
      await offer(["en"], "en");
      await hans.send("/language");
      expect(hans.text()).toBe("This shop speaks English only.");
      await hans.send("/menu");
      await hans.press("About");
      expect(hans.buttons()).not.toContain("🌐 Language");
    } finally {
      await offer(["en", "de", "fr"], "en");
    }
  });

  it("says the shop's refusals in the customer's language, naming the product as her catalogue does: stock, the address", async () => {
    const lena = customerSpeaking("de");
    await lena.send("/menu");
    await lena.press("Produkte ansehen");
    await lena.press("Kleidung");
    await lena.press(/^Wollmütze/);
    await lena.press(/^1 in den Warenkorb/);
    await lena.press(/^1 in den Warenkorb/);
    let from = telegram.calls.length;
    await lena.press(/^1 in den Warenkorb/);
    expect(lena.notices(from)).toEqual(["Von Wollmütze sind nur noch 2 übrig, und 2 liegen schon in deinem Warenkorb."]);

    await lena.press("🛒 Warenkorb");
    from = telegram.calls.length;
    await lena.press("➕");
    expect(lena.notices(from)).toEqual(["Von Wollmütze sind nur noch 2 übrig."]);
    await lena.press("✅ Zur Kasse");
    await lena.send("A");
    expect(lena.text()).toMatch(/^Bitte sende einen Namen mit 2 bis 100 Zeichen, zum Beispiel Erika Mustermann\.\n\n/);
    await lena.send("Lena Berg");
    await lena.send("Hauptstraße 12, Berlin");
    await lena.send("kein Code!");
    expect(lena.text()).toMatch(/^Das sieht nicht nach einer Postleitzahl aus\./);
    await lena.send("10115");
    await lena.press("Überspringen");
    await lena.press("Bitcoin (BTC)");
    expect(lena.buttons()).toContain("✅ Bestätigen und bezahlen");

    // One hat sells elsewhere while she reads the summary: the reservation at Confirm refuses, and
    // her cart is lowered, both under the German name.
    const [hat] = await shop.server.deps.db.select().from(products).where(eq(products.name, "Wool Hat"));
    await shop.server.deps.db.update(productVariants).set({ stock: 1 }).where(eq(productVariants.productId, hat!.id));
    await lena.press("✅ Bestätigen und bezahlen");
    expect(lena.text()).toMatch(
      /^⚠️ Nicht genug auf Lager für Wollmütze: nur noch 1 übrig\.\n\n⚠️ Von Wollmütze sind nur noch 1 übrig, deshalb wurde deine Menge auf 1 gesenkt\./,
    );
    await lena.send("/cancel");
  });

  it("lists My Orders with German status words, parcel lines and the name the customer saw", async () => {
    const { db } = shop.server.deps;
    const jonas = customerSpeaking("de");
    await jonas.send("/start");
    const [jacket] = await db.select().from(products).where(eq(products.name, "Rain Jacket"));
    const bought = { items: [{ product: jacket!, quantity: 1 }], telegramUserId: jonas.id, paymentStatus: "finished" };
    const { items } = await insertOrder(db, { ...bought, status: "dispatched", carrier: "Royal Mail", trackingNumber: "RM 123456785GB", createdAt: new Date(Date.now() - 60_000) });
    await db.update(orderItems).set({ shownName: "Regenjacke" }).where(eq(orderItems.id, items[0]!.id));
    await insertOrder(db, { ...bought, status: "processing" });

    await jonas.press("Meine Bestellungen");
    const [, newest, older] = jonas.text().split("\n\n");
    expect(newest).toContain("Status: Bezahlt, wird für den Versand vorbereitet\n• 1 × Rain Jacket");
    expect(older).toContain(
      "Status: Versendet\nVersanddienst: Royal Mail\nSendungsnummer: RM 123456785GB\n" +
        "Sendung verfolgen: https://www.royalmail.com/track-your-item#/tracking-results/RM123456785GB\n• 1 × Regenjacke",
    );
  });

  it("sends a broadcast in each recipient's language, else its own text", { timeout: 20_000 }, async () => {
    const { deps } = shop.server;
    const anke = customerSpeaking("de");
    const fred = customerSpeaking("fr");
    const emma = customerSpeaking("en");
    for (const customer of [anke, fred, emma]) await customer.send("/start");
    await createBroadcast(deps.db, { text: "Summer sale!", textTranslations: { de: "Sommerschlussverkauf!" }, imageUrl: null, audience: { kind: "all" } }, new Date());
    sender = createBroadcastSender(deps, { log: silentLog, soleInstance: true, idlePollMs: 100 });
    sender.start();
    const textTo = (customer: Customer) =>
      telegram.callsOf("sendMessage").find((call) => String(call.payload.chat_id) === customer.id && /sale|verkauf/i.test(String(call.payload.text)))?.payload.text;
    await expect.poll(() => [textTo(anke), textTo(fred), textTo(emma)], { timeout: 10_000 }).toEqual(["Sommerschlussverkauf!", "Summer sale!", "Summer sale!"]);
  });

  it("writes payment updates and dispatch notices in the language stored for the customer", async () => {
    const { db } = shop.server.deps;
    const otto = customerSpeaking("de");
    await otto.send("/start");
    const language = await messageLanguageOf(db, otto.id);
    expect(language).toBe("de");
    const order = { id: "0a1b2c3d-0000-4000-8000-000000000000", carrier: null, trackingNumber: null, note: "Viel Spaß!" };
    expect(paymentMessages.paid(order.id, translatorFor(language))).toBe(
      "Zahlung für Bestellung #0a1b2c3d erhalten. Danke! Deine Bestellung wird jetzt für den Versand vorbereitet.",
    );
    expect(dispatchNoticeIn(order, language)).toBe("Gute Nachricht! Deine Bestellung #0a1b2c3d ist verschickt.\nHinweis vom Shop: Viel Spaß!\nDanke für deinen Einkauf.");
    // English is the dashboard's preview, word for word; someone never seen gets the shop's default.
    expect(dispatchNoticeIn(order, "en")).toBe(dispatchNotice(order));
    expect(await messageLanguageOf(db, "96999999")).toBe("en");
  });
});
