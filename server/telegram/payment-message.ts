import { InputFile } from "grammy";
import type { MessageEntity } from "grammy/types";
import QRCode from "qrcode";
import { paymentUri } from "../shop/orders";
import type { BotContext } from "./context";
import { translatorFor, type Translator } from "../shop/languages";
import { fit, MAX_CAPTION } from "./ui";

// The payment details: always a NEW message with no buttons, so no later tap edits the address
// and amount away. A QR code of the payment URI carries both into a wallet; in the caption the
// amount and the address stand on lines of their own, marked as code (tap to copy in Telegram).

export type PaymentRequest = {
  /** First lines: what this is about ("Order #abcd1234 is placed. Total: £30.50"). */
  heading: string;
  /** The coin as customers write it: "BTC". */
  coin: string;
  /** What to send now (the whole amount, or the rest after a short payment). */
  amount: string;
  address: string;
  deadline: Date;
  /** Closing line, after the deadline. */
  footer?: string;
  /** The gateway's own payment page (BTCPay's invoice checkout link), offered after the deadline; absent for NOWPayments. */
  checkoutUrl?: string | null;
};

/** The QR code of a payment URI, as a PNG image. */
export function paymentQrPng(uri: string): Promise<Buffer> {
  return QRCode.toBuffer(uri, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 480 });
}

/** The caption and its code entities (offsets in UTF-16 units, as Telegram counts them). */
export function paymentCaption(request: PaymentRequest, timeZone: string, tr: Translator = translatorFor("en")): { text: string; entities: MessageEntity[] } {
  const amountLine = `${request.amount} ${request.coin}`;
  const before = [request.heading, "", tr.t("payment-send-exactly")].join("\n") + "\n";
  const middle = `\n${tr.t("payment-to-address")}\n`;
  const after = [
    "",
    "",
    tr.t("payment-pay-by", { deadline: tr.dateTime(request.deadline, timeZone) }),
    ...(request.checkoutUrl ? [tr.t("payment-page", { url: request.checkoutUrl })] : []),
    ...(request.footer ? [request.footer] : []),
  ].join("\n");
  const text = before + amountLine + middle + request.address + after;
  const entities: MessageEntity[] = [
    { type: "code", offset: before.length, length: request.amount.length },
    { type: "code", offset: before.length + amountLine.length + middle.length, length: request.address.length },
  ];
  // The caption is short by construction; a cut would drop the deadline, never the amount or address.
  return { text: fit(text, MAX_CAPTION), entities };
}

/** Sends the payment details as a new photo message (QR code + caption), or as text when no QR can be made or sent. */
export async function sendPaymentRequest(ctx: BotContext, request: PaymentRequest): Promise<void> {
  const caption = paymentCaption(request, ctx.deps.config.timeZone, ctx.tr);
  const uri = paymentUri(request.coin, request.address, request.amount);
  if (uri) {
    try {
      const png = await paymentQrPng(uri);
      await ctx.replyWithPhoto(new InputFile(png, "payment-qr.png"), { caption: caption.text, caption_entities: caption.entities });
      return;
    } catch (error) {
      // The details matter more than the picture: they go out as text below.
      ctx.log.warn({ err: error }, "the payment QR code could not be sent");
    }
  }
  await ctx.reply(caption.text, { entities: caption.entities });
}
