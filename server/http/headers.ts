import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/**
 * Browser hardening on every answer (DESIGN decision 9), with @fastify/helmet:
 * - a Content-Security-Policy the built app satisfies: scripts only from this origin (Vite emits no
 *   inline script), no plugins, no framing by any site, images from here and data:/blob: (previews);
 *   inline style *attributes* stay allowed because Radix positions popovers with them;
 * - X-Frame-Options DENY for browsers without frame-ancestors, nosniff, Referrer-Policy no-referrer;
 * - HSTS only when the shop is served over https (PUBLIC_URL), where it cannot lock anyone out.
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string | undefined) {
  const https = publicUrl?.startsWith("https://") ?? false;
  await app.register(helmet, {
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
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    // Product images are embedded by this origin only; Telegram fetches them server to server.
    crossOriginResourcePolicy: { policy: "same-origin" },
    crossOriginEmbedderPolicy: false,
  });
}
