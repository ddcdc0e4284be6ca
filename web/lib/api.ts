import { QueryCache, QueryClient, type QueryFunction } from "@tanstack/react-query";

/**
 * A non-OK answer. Its message is "status: body text" (or the status text when the body is empty),
 * as SPEC §8 describes; `serverMessage` is the `{ error }` sentence of the body when there is one.
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
    try {
      const parsed: unknown = JSON.parse(this.bodyText);
      if (parsed && typeof parsed === "object" && "error" in parsed && typeof parsed.error === "string") return parsed.error;
    } catch {
      // not JSON: no sentence to offer
    }
    return undefined;
  }
}

/** The server's own sentence when it gave one, else the error's message; for toast descriptions. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

async function throwIfNotOk(response: Response) {
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

/**
 * One call to the API: credentials always sent, a JSON body only when one is given.
 * Answers the parsed JSON body (null when the body is empty); throws ApiError when not OK.
 */
export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: "include",
    headers: body !== undefined ? { "Content-Type": "application/json" } : undefined,
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  await throwIfNotOk(response);
  return (await readJson(response)) as T;
}

/**
 * The generic read of SPEC §7: the query key's parts joined with "/" make the URL.
 * With on401 "returnNull" a 401 answers null instead of throwing (used for the auth status).
 */
export function getQueryFn<T>({ on401 }: { on401: "returnNull" | "throw" }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const response = await fetch(queryKey.join("/"), { credentials: "include", signal });
    if (on401 === "returnNull" && response.status === 401) return null as T;
    await throwIfNotOk(response);
    return (await readJson(response)) as T;
  };
}

export const AUTH_STATUS_KEY = ["/api/auth/status"] as const;

/**
 * SPEC §9: reads never go stale, are not refetched on focus, never polled, never retried;
 * each screen reloads its list after its own writes. A 401 on any other read means the session
 * ended, so the auth status is checked again and the login screen shows.
 */
export function createQueryClient() {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (error instanceof ApiError && error.status === 401 && query.queryKey[0] !== AUTH_STATUS_KEY[0]) {
          void client.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
        }
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
