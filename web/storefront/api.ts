import {
  STOREFRONT_AUTH_SCHEME,
  type StorefrontCatalogue,
  type StorefrontCheckout,
  type StorefrontMessage,
  type StorefrontMessageInput,
  type StorefrontMessageList,
  type StorefrontOrder,
  type StorefrontOrderInput,
  type StorefrontOrderList,
  type StorefrontQuote,
  type StorefrontQuoteInput,
} from "../../contract/storefront";

// The storefront's calls to /api/storefront/* (contract/storefront.ts). Every call carries the init
// data Telegram signed for this launch: `Authorization: tma <raw init data>`; the server checks it
// and knows the customer by it. A refusal is the server's `{ error: "<sentence>" }` (docs/product.md
// rule 8), already in the customer's language: it is shown as it is.

/**
 * A refused or failed call: `status` 0 when the server was not reached at all. `answered` when the
 * shop itself answered with its sentence: what the call did is known then (a proxy's error page, or
 * no answer, leaves it unknown: the server may have done it).
 */
export class StorefrontError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly answered = false,
  ) {
    super(message);
    this.name = "StorefrontError";
  }
}

export type StorefrontApi = ReturnType<typeof createStorefrontApi>;

type FallbackMessages = { network: string; failed: string };

/** `fallbackMessage` is the sentence for a failure with no answer of the server's to show. */
export function createStorefrontApi(initData: string, firstFallbackMessage: FallbackMessages) {
  let fallbackMessage = firstFallbackMessage;
  async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `${STOREFRONT_AUTH_SCHEME} ${initData}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(`/api/storefront${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new StorefrontError(0, fallbackMessage.network);
    }
    const text = await response.text();
    let answer: unknown = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      // a proxy's HTML error page: the status says enough
    }
    if (!response.ok) {
      const error = (answer as { error?: unknown } | null)?.error;
      const shopSaid = typeof error === "string" && error !== "";
      throw new StorefrontError(response.status, shopSaid ? error : fallbackMessage.failed, shopSaid);
    }
    return answer as T;
  }

  return {
    catalogue: () => call<StorefrontCatalogue>("GET", "/catalogue"),
    quote: (input: StorefrontQuoteInput) => call<StorefrontQuote>("POST", "/quote", input),
    placeOrder: (input: StorefrontOrderInput) => call<StorefrontCheckout>("POST", "/orders", input),
    orders: () => call<StorefrontOrderList>("GET", "/orders"),
    order: (id: string) => call<StorefrontOrder>("GET", `/orders/${encodeURIComponent(id)}`),
    messages: () => call<StorefrontMessageList>("GET", "/messages"),
    sendMessage: (input: StorefrontMessageInput) => call<StorefrontMessage>("POST", "/messages", input),
    /** The fallback sentences from now on: the customer's language, once the catalogue named it. */
    setFallbackMessages: (messages: FallbackMessages) => {
      fallbackMessage = messages;
    },
  };
}
