// Peer: a bare grammY webhook bot, no database. Its /start and "Browse Products" press answer as the
// shop's do (one sendMessage; one editMessageText and one answerCallbackQuery, same texts and
// keyboards, to the same fake Telegram), so the difference to the shop is what the shop does besides:
// deduplicating the update, loading settings, the customer's conversation and the categories.
// Environment: BOT_TOKEN, TELEGRAM_API_ROOT, WEBHOOK_SECRET.
import http from "node:http";
import { Bot, InlineKeyboard, webhookCallback } from "grammy";

const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API_ROOT } });

const WELCOME = process.env.WELCOME_MESSAGE ?? "Welcome to the bench shop!";
// The shop's main menu (server/telegram/ui.ts) and a category list like the seeded one.
const mainMenu = () =>
  new InlineKeyboard()
    .text("Browse Products", "cats:0")
    .text("My Cart", "cart")
    .row()
    .text("My Orders", "orders")
    .text("Contact Support", "support")
    .row()
    .text("About", "about");
const CATEGORY_NAMES = (process.env.CATEGORY_NAMES ?? "Category 1").split("|");

bot.command("start", (ctx) => ctx.reply(WELCOME, { reply_markup: mainMenu() }));
bot.callbackQuery("cats:0", async (ctx) => {
  const keyboard = new InlineKeyboard();
  CATEGORY_NAMES.forEach((name, index) => keyboard.text(name, `cat:${index}:0`).row());
  keyboard.text("« Main menu", "menu");
  await ctx.editMessageText("Browse Products\n\nChoose a category:", { reply_markup: keyboard });
  await ctx.answerCallbackQuery();
});

await bot.init();
// As the shop: the update is answered once handled, and the secret token is checked.
const handle = webhookCallback(bot, "http", { secretToken: process.env.WEBHOOK_SECRET, timeoutMilliseconds: 10_000 });
const server = http.createServer((request, response) => {
  if (request.method === "POST" && request.url === "/api/telegram/webhook") return void handle(request, response);
  response.writeHead(404).end();
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(`LISTENING ${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
