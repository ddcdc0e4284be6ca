import { sign } from "@telegram-apps/init-data-node";

// Init data as Telegram signs it for a Mini App launch (https://core.telegram.org/bots/webapps,
// "Validating data received via the Mini App"), for the storefront's browser test: the raw query
// string the page finds in #tgWebAppData and sends as `Authorization: tma <raw>`.

export type InitDataUser = { id: number; first_name: string; last_name?: string; username?: string; language_code?: string };

export function signInitData({ botToken, user, authDate = new Date() }: { botToken: string; user: InitDataUser; authDate?: Date }): string {
  return sign({ user, query_id: "AAHdF6IQAAAAAN0XohDhrOrc", chat_type: "sender", chat_instance: "-1" }, botToken, authDate);
}
