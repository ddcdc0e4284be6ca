import { Composer } from "grammy";
import type { BotContext } from "../context";
import { notice } from "../ui";
import { showMainMenu } from "./start";

// Whatever no feature took: an old button, a sticker, a message out of context. The customer gets
// the main menu back instead of an error or silence.

export const fallbackFeature = new Composer<BotContext>();

fallbackFeature.on("callback_query", async (ctx) => {
  await notice(ctx, ctx.t("button-invalid"));
  await showMainMenu(ctx);
});

fallbackFeature.on("message", async (ctx) => {
  await showMainMenu(ctx, ctx.t("not-understood"));
});
