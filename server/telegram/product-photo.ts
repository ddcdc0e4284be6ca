import { eq } from "drizzle-orm";
import { GrammyError, InlineKeyboard, InputFile } from "grammy";
import type { Message } from "grammy/types";
import { telegramFileCache } from "../db/schema";
import type { BotContext } from "./context";
import { fit, isNotModified, MAX_CAPTION, pressedMessage, show } from "./ui";

// Product images are uploaded to Telegram from our storage once; Telegram's file_id for the upload
// is cached (telegram_file_cache, keyed by the image path) and reused for every later card.

const OBJECT_PATH = /^\/objects\/([A-Za-z0-9_-]+)$/;

export function objectIdOf(imageUrl: string | null): string | null {
  return imageUrl ? (OBJECT_PATH.exec(imageUrl)?.[1] ?? null) : null;
}

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

async function sendPhoto(
  ctx: BotContext,
  imagePath: string,
  objectId: string,
  caption: string,
  keyboard: InlineKeyboard,
): Promise<Message | null> {
  const { db, storage } = ctx.deps;
  const options = { caption, reply_markup: keyboard };
  const [cached] = await db
    .select({ fileId: telegramFileCache.fileId })
    .from(telegramFileCache)
    .where(eq(telegramFileCache.imagePath, imagePath));
  if (cached) {
    try {
      return await ctx.replyWithPhoto(cached.fileId, options);
    } catch (error) {
      // A file_id belongs to one bot: after a token change (or if Telegram forgot it) upload again.
      if (!(error instanceof GrammyError) || error.error_code !== 400) throw error;
      await db.delete(telegramFileCache).where(eq(telegramFileCache.imagePath, imagePath));
    }
  }
  const object = await storage.get(objectId);
  if (!object) return null;
  const file = new InputFile(object.data, `product.${EXTENSIONS[object.contentType] ?? "jpg"}`);
  const sent = await ctx.replyWithPhoto(file, options);
  const fileId = sent.photo?.at(-1)?.file_id;
  if (fileId) {
    await db
      .insert(telegramFileCache)
      .values({ imagePath, fileId })
      .onConflictDoUpdate({ target: telegramFileCache.imagePath, set: { fileId, createdAt: new Date() } });
  }
  return sent;
}

/**
 * Shows a product card: a photo with a caption when the product has a stored image, else text.
 * A quantity change on a photo card edits its caption in place.
 */
export async function showProductCard(
  ctx: BotContext,
  imageUrl: string | null,
  caption: string,
  keyboard: InlineKeyboard,
): Promise<void> {
  const objectId = objectIdOf(imageUrl);
  if (!imageUrl || !objectId) return show(ctx, caption, keyboard);
  const text = fit(caption, MAX_CAPTION);
  const pressed = pressedMessage(ctx);
  if (pressed && "photo" in pressed && pressed.photo) {
    try {
      await ctx.api.editMessageCaption(pressed.chat.id, pressed.message_id, { caption: text, reply_markup: keyboard });
      return;
    } catch (error) {
      if (isNotModified(error)) return;
      if (!(error instanceof GrammyError)) throw error;
    }
  }
  const sent = await sendPhoto(ctx, imageUrl, objectId, text, keyboard);
  if (!sent) return show(ctx, caption, keyboard); // the image file is missing: the card still works as text
  // The list the customer came from is replaced by the card, as a text screen would be.
  if (pressed) await ctx.api.deleteMessage(pressed.chat.id, pressed.message_id).catch(() => {});
}
