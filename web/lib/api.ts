import { MutationCache, QueryCache, QueryClient, type QueryFunction } from "@tanstack/react-query";
import { markTwoFactorRequired } from "./two-factor";

/**
 * A non-OK answer. Its message is "status: body text" (or the status text when the body is empty),
 * as docs/product.md §8 describes; `serverMessage` is the `{ error }` sentence of the body when there is one.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = "ApiError";
  }

  get serverMessage(): string | undefined {
    const parsed = this.body;
    return typeof parsed?.error === "string" ? parsed.error : undefined;
  }

  /**
   * What the server asks of the client beside its sentence (issue 25): a two-factor code at sign-in,
   * a fresh one for a sensitive action, or turning two-factor on first.
   */
  get asks(): { totpRequired: boolean; stepUpRequired: boolean; twoFactorRequired: boolean } {
    const parsed = this.body;
    return { totpRequired: parsed?.totpRequired === true, stepUpRequired: parsed?.stepUpRequired === true, twoFactorRequired: parsed?.twoFactorRequired === true };
  }

  private get body(): Record<string, unknown> | null {
    try {
      const parsed: unknown = JSON.parse(this.bodyText);
      return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : null;
    } catch {
      return null; // not JSON: nothing to offer
    }
  }
}

/** The server's own sentence when it gave one, else the error's message; for toast descriptions. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Why a sign-in failed, for the password field: the server's sentence (a wrong password, too many
 * tries), else docs/product.md §8's 'Invalid password', or its network failure text.
 */
export function loginErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? "Invalid password";
  return "Network error. Please try again.";
}

async function throwIfNotOk(response: Response) {
  if (response.ok) return;
  const error = new ApiError(response.status, await response.text(), response.statusText);
  // A staff account the owner requires to use two-factor: the app takes it to Your account (lib/two-factor.ts).
  if (error.status === 403 && error.asks.twoFactorRequired) markTwoFactorRequired();
  throw error;
}

/**
 * Asks for a fresh two-factor code over the page (web/components/layout/step-up-dialog.tsx); resolves
 * true once the session has one (POST /api/auth/step-up), false when the person chose not to.
 */
export type StepUp = () => Promise<boolean>;
let stepUp: StepUp | null = null;
/** One code answers every call that met the refusal meanwhile. */
let steppingUp: Promise<boolean> | null = null;

/** The signed-in app offers its step-up dialog; answers the function that withdraws it. */
export function offerStepUp(handler: StepUp): () => void {
  stepUp = handler;
  return () => {
    if (stepUp === handler) stepUp = null;
  };
}

function askForStepUp(): Promise<boolean> {
  if (!stepUp) return Promise.resolve(false);
  steppingUp ??= stepUp().finally(() => (steppingUp = null));
  return steppingUp;
}

/**
 * Sends, and when a sensitive action answers 403 `stepUpRequired` (a fresh two-factor code is needed,
 * server/http/security.ts), asks for the code over the page and sends once more. Whatever was being
 * done (a form, a list) stays as it was meanwhile.
 */
async function sendWithStepUp(send: () => Promise<Response>): Promise<Response> {
  const response = await send();
  if (response.status !== 403 || !stepUp) return response;
  const refusal = new ApiError(response.status, await response.clone().text(), response.statusText);
  if (!refusal.asks.stepUpRequired) return response;
  return (await askForStepUp()) ? send() : response;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

export const LOGIN_URL = "/api/auth/login";
const LOGOUT_URL = "/api/auth/logout";

/**
 * Asks the owner to sign in again over the page (web/components/layout/sign-in-again-dialog.tsx);
 * resolves true once signed in, false when they chose not to.
 */
export type SignInAgain = () => Promise<boolean>;
let signInAgain: SignInAgain | null = null;
/** One sign-in answers every write that met the ended session meanwhile. */
let signingIn: Promise<boolean> | null = null;

/** The signed-in app offers its sign-in dialog; answers the function that withdraws it. */
export function offerSignInAgain(handler: SignInAgain): () => void {
  signInAgain = handler;
  return () => {
    if (signInAgain === handler) signInAgain = null;
  };
}

function askToSignInAgain(): Promise<boolean> {
  if (!signInAgain) return Promise.resolve(false);
  signingIn ??= signInAgain().finally(() => (signingIn = null));
  return signingIn;
}

/**
 * A 401 on a write the owner chose not to sign in again for: the form keeps their work (the app
 * does not switch to the login screen under it), and the next save asks again.
 */
export class SignInDeclinedError extends ApiError {}

/**
 * One call to the API: credentials always sent, a JSON body only when one is given.
 * Answers the parsed JSON body (null when the body is empty); throws ApiError when not OK.
 *
 * A write that meets 401 (the session ended: an expiry, a logout elsewhere) is work the owner would
 * lose (issue 22, item 3): the sign-in dialog opens over the page, whose forms keep what was typed,
 * and once signed in the write is sent again, once. Reads are not: with nothing at stake, they end
 * on the login screen as before (createQueryClient below).
 */
export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const send = () =>
    fetch(url, {
      method,
      credentials: "include",
      headers: body !== undefined ? { "Content-Type": "application/json" } : undefined,
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  let response = await sendWithStepUp(send);
  if (response.status === 401 && method !== "GET" && url !== LOGIN_URL && url !== LOGOUT_URL && signInAgain) {
    if (!(await askToSignInAgain())) throw new SignInDeclinedError(response.status, await response.text(), response.statusText);
    response = await sendWithStepUp(send);
  }
  await throwIfNotOk(response);
  return (await readJson(response)) as T;
}

export const STEP_UP_URL = "/api/auth/step-up";

/**
 * Before a sensitive download that is a plain link (the orders CSV): resolves once this session may do
 * a sensitive action, asking for a fresh two-factor code first when it needs one; throws otherwise
 * (the 401 of an ended session, or the refusal when the code was not given).
 */
export function confirmFreshTwoFactor(): Promise<unknown> {
  return apiRequest("GET", STEP_UP_URL);
}

/** Query parameters of a list read (issue 12); empty and absent values are left out of the URL. */
export type ListParams = Record<string, string | number | boolean | null | undefined>;

const isParams = (part: unknown): part is ListParams => typeof part === "object" && part !== null && !Array.isArray(part);

/**
 * The URL of a query key: its text parts joined with "/" (docs/product.md §7's generic read); a last part that
 * is an object is the query string. A key such as ["/api/orders", { limit: 3 }] still falls under
 * ["/api/orders"], so invalidating the list reloads its filtered reads too.
 */
export function queryKeyUrl(queryKey: readonly unknown[]): string {
  const last = queryKey.at(-1);
  const params = isParams(last) ? last : null;
  const path = (params ? queryKey.slice(0, -1) : queryKey).join("/");
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The generic read of docs/product.md §7: the query key's parts joined with "/" make the URL.
 * With on401 "returnNull" a 401 answers null instead of throwing (used for the auth status).
 */
export function getQueryFn<T>({ on401 }: { on401: "returnNull" | "throw" }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const response = await sendWithStepUp(() => fetch(queryKeyUrl(queryKey), { credentials: "include", signal }));
    if (on401 === "returnNull" && response.status === 401) return null as T;
    await throwIfNotOk(response);
    return (await readJson(response)) as T;
  };
}

/** One page of a server-paged list: its rows, how many match in all, and the next page's cursor. */
export type ServerPage<T> = { rows: T[]; total: number; nextCursor: string | null };

/** The cursor in a `Link: <...>; rel="next"` header, or null on the last page. */
export function nextCursorOf(link: string | null): string | null {
  const match = link ? /<([^>]+)>;\s*rel="next"/.exec(link) : null;
  return match ? new URL(match[1]!, "http://link.invalid").searchParams.get("cursor") : null;
}

/** Marks a query key whose data is a ServerPage, so it never shares a cache entry with the plain list. */
export const PAGE_MARK = "page";

/** A paged read: the key's URL (with limit among its params), the rows, X-Total-Count and the Link's cursor. */
export const getPageFn =
  <T>(): QueryFunction<ServerPage<T>> =>
  async ({ queryKey, signal }) => {
    const response = await sendWithStepUp(() => fetch(queryKeyUrl(queryKey.filter((part) => part !== PAGE_MARK)), { credentials: "include", signal }));
    await throwIfNotOk(response);
    const rows = (await readJson(response)) as T[];
    return {
      rows,
      total: Number(response.headers.get("x-total-count") ?? rows.length),
      nextCursor: nextCursorOf(response.headers.get("link")),
    };
  };

export const AUTH_STATUS_KEY = ["/api/auth/status"] as const;

let sessionEnded = false;

/** True once (then false): the session ended under a signed-in page; the login screen says so. */
export function takeSessionEnded(): boolean {
  const ended = sessionEnded;
  sessionEnded = false;
  return ended;
}

/**
 * docs/product.md §9: reads never go stale, are not refetched on focus, never polled, never retried;
 * each screen reloads its list after its own writes. A 401 on any other read or write means the
 * session ended (a logout in another tab, an expiry): the auth status is checked again and the login
 * screen shows, at the same URL, so logging in again returns to the same screen (issue 13).
 */
export function createQueryClient() {
  const onUnauthorized = (error: unknown) => {
    if (!(error instanceof ApiError) || error.status !== 401) return;
    // The owner kept the page to keep their work (apiRequest): no switch to the login screen under it.
    if (error instanceof SignInDeclinedError) return;
    const status = client.getQueryData<{ authenticated?: boolean } | null>(AUTH_STATUS_KEY);
    if (status?.authenticated !== true) return; // already signed out (our own logout): nothing ended
    sessionEnded = true;
    // What the screens cached belongs to the ended session: read it again after the next login.
    void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== AUTH_STATUS_KEY[0], refetchType: "none" });
    void client.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.queryKey[0] !== AUTH_STATUS_KEY[0]) onUnauthorized(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        // A wrong password answers 401 too: that is the login's own business.
        if (mutation.options.mutationKey?.[0] !== LOGIN_MUTATION_KEY[0]) onUnauthorized(error);
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

export const LOGIN_MUTATION_KEY = ["login"] as const;
