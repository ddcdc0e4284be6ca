import type { FastifyInstance } from "fastify";
import helmet from "helmet";
import { isStorefrontPage } from "./web";

/** Telegram's web client, which shows a Mini App in a frame of its own page (web.telegram.org/k/, /a/). */
export const TELEGRAM_WEB_ORIGIN = "https://web.telegram.org";

/**
 * Browser hardening on every answer (docs/product.md rule 9), with helmet:
 * - a Content-Security-Policy the built app satisfies: scripts only from this origin (Vite emits no
 *   inline script), no plugins, no framing by any site, images from here and data:/blob: (previews);
 *   inline style *attributes* stay allowed because Radix positions popovers with them;
 * - X-Frame-Options DENY for browsers without frame-ancestors, nosniff, Referrer-Policy no-referrer;
 * - HSTS only when the shop is served over https (PUBLIC_URL), where it cannot lock anyone out.
 * The storefront Mini App's page (/shop/, issue 27) is the one exception to "no framing": Telegram's
 * web client shows it in a frame, so there frame-ancestors names that client (and this origin) and
 * X-Frame-Options, which cannot name an origin, is left out. Its API answers keep the strict headers.
 *
 * helmet itself, not @fastify/helmet: the Fastify plugin builds helmet's middleware again on every
 * request (parsing the CSP directives each time: ~2% of the CPU of a bot update, the webhook answered
 * in the benchmark's closed loop, issue 12). Built once here, it sets the same headers the same way.
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string | undefined) {
  const https = publicUrl?.startsWith("https://") ?? false;
  const headersFor = ({ framedByTelegram }: { framedByTelegram: boolean }) =>
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:", "blob:"],
          fontSrc: ["'self'", "data:"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: framedByTelegram ? ["'self'", TELEGRAM_WEB_ORIGIN] : ["'none'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      frameguard: framedByTelegram ? false : { action: "deny" },
      referrerPolicy: { policy: "no-referrer" },
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
      // Product images are embedded by this origin only; Telegram fetches them server to server.
      crossOriginResourcePolicy: { policy: "same-origin" },
      crossOriginEmbedderPolicy: false,
    });
  const everywhere = headersFor({ framedByTelegram: false });
  const storefrontPage = headersFor({ framedByTelegram: true });
  app.addHook("onRequest", (request, reply, done) => {
    const setHeaders = (request.method === "GET" || request.method === "HEAD") && isStorefrontPage(request.url) ? storefrontPage : everywhere;
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
}
