import { Api, GrammyError, HttpError } from "grammy";
import { unavailable, type CustomerNotifier } from "../shop/common";
import { isTestCustomer } from "../shop/simulator";

/**
 * A notifier over grammY's Api client. The token is looked up at each send, so a token saved
 * in Bot Settings is used at once. What goes to Bot Preview's test customer never reaches Telegram
 * (docs/decisions/0023): it goes into the simulator's chat (`toTestCustomer`), or nowhere.
 */
export function createTelegramNotifier(options: {
  apiRoot: string;
  getToken: () => Promise<string | null | undefined>;
  toTestCustomer?: (text: string) => Promise<void>;
}): CustomerNotifier {
  return {
    async sendMessage(chatId, text) {
      if (isTestCustomer(chatId)) {
        await options.toTestCustomer?.(text);
        return;
      }
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
