// An account's initials for its avatar in the top bar, taken as the Messages screen takes a
// customer's (web/components/messages/conversations.ts): the first letters of the name's first two
// words, or the first two letters of a one-word name ("Sue Support" is "SS", "Owner" is "OW"); from
// the username when the name holds no letter or digit. Letters are whole (an accent typed as a
// separate mark stays on its letter), so "Émile" is "ÉM", never "E" and a stray accent.

const WORD_BREAK = /[^\p{L}\p{M}\p{N}]+/u;

function wordsOf(text: string): string[][] {
  return text
    .normalize("NFC")
    .split(WORD_BREAK)
    .filter(Boolean)
    .map((word) => Array.from(word));
}

export function accountInitials(account: { name: string; username: string }): string {
  for (const text of [account.name, account.username]) {
    const words = wordsOf(text);
    if (words.length >= 2) return (words[0]![0]! + words[1]![0]!).toUpperCase();
    if (words.length === 1) return words[0]!.slice(0, 2).join("").toUpperCase();
  }
  return "?";
}
