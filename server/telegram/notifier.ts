import { Api, GrammyError, HttpError } from "grammy";
import { unavailable } from "../shop/errors";
import type { CustomerNotifier } from "../shop/ports";

/**
 * A notifier over grammY's Api client. The token is looked up at each send, so a token saved
 * in Bot Settings is used at once.
 */
export function createTelegramNotifier(options: {
  apiRoot: string;
  getToken: () => Promise<string | null | undefined>;
}): CustomerNotifier {
  return {
    async sendMessage(chatId, text) {
      const token = await options.getToken();
      if (!token) throw unavailable("No Telegram bot token is configured. Add it in Bot Settings.");
      const api = new Api(token, { apiRoot: options.apiRoot });
      try {
        await api.sendMessage(chatId, text);
      } catch (error) {
        if (error instanceof GrammyError) {
          throw unavailable(`Telegram refused the message: ${error.description}`);
        }
        if (error instanceof HttpError) throw unavailable("Telegram could not be reached. Please try again.");
        throw error;
      }
    },
  };
}
