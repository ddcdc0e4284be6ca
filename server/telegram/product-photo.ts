import { eq } from "drizzle-orm";
import { GrammyError, InlineKeyboard, InputFile, InputMediaBuilder } from "grammy";
import type { Message } from "grammy/types";
import { telegramFileCache } from "../db/schema";
import type { BotContext } from "./context";
import { fit, isNotModified, MAX_CAPTION, MAX_TEXT, pressedMessage, show } from "./ui";

// Product images are uploaded to Telegram from our storage once; Telegram's file_id for the upload
// is cached (telegram_file_cache, keyed by the image path) and reused for every later card.
// A product with several photos (issue 23) is shown as one album with the caption on its first
// photo, and the card's buttons follow as a message answering the album: Telegram's albums cannot
// carry an inline keyboard (docs/decisions/0033-product-photos.md).

const OBJECT_PATH = /^\/objects\/([A-Za-z0-9_-]+)$/;

export function objectIdOf(imageUrl: string | null): string | null {
  return imageUrl ? (OBJECT_PATH.exec(imageUrl)?.[1] ?? null) : null;
}

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

type Photo = { imagePath: string; objectId: string };

async function cachedFileId(ctx: BotContext, imagePath: string): Promise<string | null> {
  const [cached] = await ctx.deps.db
    .select({ fileId: telegramFileCache.fileId })
    .from(telegramFileCache)
    .where(eq(telegramFileCache.imagePath, imagePath));
  return cached?.fileId ?? null;
}

async function rememberFileId(ctx: BotContext, imagePath: string, sent: Message | undefined): Promise<void> {
  const fileId = sent?.photo?.at(-1)?.file_id;
  if (!fileId) return;
  await ctx.deps.db
    .insert(telegramFileCache)
    .values({ imagePath, fileId })
    .onConflictDoUpdate({ target: telegramFileCache.imagePath, set: { fileId, createdAt: new Date() } });
}

/** The image's bytes from our storage, ready to upload; null when the file is missing. */
async function upload(ctx: BotContext, photo: Photo): Promise<InputFile | null> {
  const object = await ctx.deps.storage.get(photo.objectId);
  if (!object) return null;
  return new InputFile(object.data, `product.${EXTENSIONS[object.contentType] ?? "jpg"}`);
}

/** A file_id belongs to one bot: after a token change (or if Telegram forgot it) Telegram answers 400. */
const forgotFile = (error: unknown) => error instanceof GrammyError && error.error_code === 400;

async function sendPhoto(ctx: BotContext, photo: Photo, caption: string, keyboard: InlineKeyboard): Promise<Message | null> {
  const options = { caption, reply_markup: keyboard };
  const fileId = await cachedFileId(ctx, photo.imagePath);
  if (fileId) {
    try {
      return await ctx.replyWithPhoto(fileId, options);
    } catch (error) {
      if (!forgotFile(error)) throw error;
      await ctx.deps.db.delete(telegramFileCache).where(eq(telegramFileCache.imagePath, photo.imagePath));
    }
  }
  const file = await upload(ctx, photo);
  if (!file) return null;
  const sent = await ctx.replyWithPhoto(file, options);
  await rememberFileId(ctx, photo.imagePath, sent);
  return sent;
}

/**
 * Sends the photos as one album, each by its cached file_id or uploaded (and its file_id cached).
 * A photo whose file is missing is left out. Answers the album's messages, or the photos still
 * there when fewer than two are (an album needs two).
 */
async function sendAlbum(ctx: BotContext, photos: Photo[], caption: string): Promise<Message[] | Photo[]> {
  for (const useCache of [true, false]) {
    const media = [];
    const included: { photo: Photo; uploaded: boolean }[] = [];
    for (const photo of photos) {
      const fileId = useCache ? await cachedFileId(ctx, photo.imagePath) : null;
      const source = fileId ?? (await upload(ctx, photo));
      if (!source) continue;
      media.push(InputMediaBuilder.photo(source, included.length === 0 ? { caption } : {}));
      included.push({ photo, uploaded: fileId === null });
    }
    if (included.length < 2) return included.map((entry) => entry.photo);
    try {
      const sent = await ctx.replyWithMediaGroup(media);
      for (const [i, entry] of included.entries()) if (entry.uploaded) await rememberFileId(ctx, entry.photo.imagePath, sent[i]);
      return sent;
    } catch (error) {
      // One of the cached file_ids is no longer good, and Telegram does not say which: upload them all again.
      if (!useCache || !forgotFile(error) || included.every((entry) => entry.uploaded)) throw error;
      for (const entry of included) {
        if (!entry.uploaded) await ctx.deps.db.delete(telegramFileCache).where(eq(telegramFileCache.imagePath, entry.photo.imagePath));
      }
    }
  }
  throw new Error("unreachable: the second attempt uploads every photo");
}

const isMessages = (sent: Message[] | Photo[]): sent is Message[] => sent.length > 0 && "message_id" in sent[0]!;

/** The text of the buttons message that follows an album: the product's name, the caption's first line. */
const albumButtonsText = (caption: string) => fit(caption.split("\n", 1)[0]!, MAX_TEXT);

/**
 * A quantity press on an album's buttons: the album's caption and the buttons change in place. The
 * buttons message is known by the album it answers and by its text (once it has become another
 * screen, "« Back" to the list, it still answers the album but is no longer this card).
 */
async function editAlbumCard(ctx: BotContext, pressed: Message, caption: string, keyboard: InlineKeyboard): Promise<boolean> {
  const album = pressed.reply_to_message;
  if (!album?.media_group_id || !album.photo || pressed.text !== albumButtonsText(caption)) return false;
  try {
    await ctx.api.editMessageCaption(album.chat.id, album.message_id, { caption });
  } catch (error) {
    if (isNotModified(error)) return true;
    if (!(error instanceof GrammyError)) throw error;
    return false; // the album is gone or too old: the card is sent anew
  }
  await ctx.api.editMessageReplyMarkup(pressed.chat.id, pressed.message_id, { reply_markup: keyboard }).catch((error: unknown) => {
    if (!isNotModified(error) && !(error instanceof GrammyError)) throw error;
  });
  return true;
}

/**
 * Shows a product card: one photo with the caption and buttons; several photos as an album
 * followed by the buttons; text when the product has no stored image. A quantity change edits the
 * caption in place. `fresh`: the photos differ from the pressed card's (a variant's own image, issue
 * 23), so the card is sent anew rather than its caption edited; an album above stays, as it does
 * when the customer goes back to the list.
 */
export async function showProductCard(
  ctx: BotContext,
  imageUrls: readonly string[],
  caption: string,
  keyboard: InlineKeyboard,
  options: { fresh?: boolean } = {},
): Promise<void> {
  const photos = imageUrls.flatMap((imagePath) => {
    const objectId = objectIdOf(imagePath);
    return objectId ? [{ imagePath, objectId }] : [];
  });
  if (photos.length === 0) return show(ctx, caption, keyboard);
  const text = fit(caption, MAX_CAPTION);
  const pressed = pressedMessage(ctx);
  if (pressed && !options.fresh && "photo" in pressed && pressed.photo) {
    try {
      await ctx.api.editMessageCaption(pressed.chat.id, pressed.message_id, { caption: text, reply_markup: keyboard });
      return;
    } catch (error) {
      if (isNotModified(error)) return;
      if (!(error instanceof GrammyError)) throw error;
    }
  }
  if (pressed && !options.fresh && photos.length > 1 && (await editAlbumCard(ctx, pressed, text, keyboard))) return;

  let single: Photo | undefined = photos[0];
  if (photos.length > 1) {
    const sent = await sendAlbum(ctx, photos, text);
    if (isMessages(sent)) {
      // The buttons answer the album's first photo, which is how a quantity press finds the caption to edit.
      await ctx.reply(albumButtonsText(caption), { reply_markup: keyboard, reply_parameters: { message_id: sent[0]!.message_id } });
      if (pressed) await ctx.api.deleteMessage(pressed.chat.id, pressed.message_id).catch(() => {});
      return;
    }
    single = sent[0];
  }
  const sent = single ? await sendPhoto(ctx, single, text, keyboard) : null;
  if (!sent) return show(ctx, caption, keyboard); // the image files are missing: the card still works as text
  // The list the customer came from is replaced by the card, as a text screen would be.
  if (pressed) await ctx.api.deleteMessage(pressed.chat.id, pressed.message_id).catch(() => {});
}
