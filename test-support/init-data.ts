import { sign } from "@telegram-apps/init-data-node";

// Telegram's init data for the storefront's tests (issue 27): what Telegram hands a Mini App opened
// from the shop's bot, signed with the bot's token, as the raw query string the Mini App sends in
// `Authorization: tma <init data>` (server/http/storefront-auth.ts). The browser tests use it too.

export type InitDataUser = {
  id: number;
  firstName?: string;
  username?: string;
  languageCode?: string;
};

/** The raw init data for `user`, signed with `botToken` at `authDate` (now by default). */
export function signInitData({ botToken, user, authDate = new Date() }: { botToken: string; user: InitDataUser; authDate?: Date }): string {
  return sign(
    {
      query_id: "AAHdF6IQAAAAAN0XohDhrOrc",
      user: {
        id: user.id,
        first_name: user.firstName ?? "Test",
        ...(user.username !== undefined ? { username: user.username } : {}),
        ...(user.languageCode !== undefined ? { language_code: user.languageCode } : {}),
      },
    },
    botToken,
    authDate,
  );
}

/** The Authorization header of a storefront call as `user`. */
export function storefrontAuthorization(options: Parameters<typeof signInitData>[0]): { authorization: string } {
  return { authorization: `tma ${signInitData(options)}` };
}
