import { lazyScreen } from "@/lib/lazy-screen";

// Every screen behind the login, one chunk each, loaded the first time it is opened (or ahead of
// time by preload-screen.ts). The routes (components/layout/authenticated-app.tsx, app.tsx) and the
// preloading share these, so a preloaded chunk is the one the route renders.

/** The signed-in shell: sidebar, top bar and the routes below. */
export const signedInApp = lazyScreen(() => import("@/components/layout/authenticated-app"));
/** A print view outside the app's frame. */
export const packingSlipsScreen = lazyScreen(() => import("@/pages/packing-slips"));

export const screens = {
  dashboard: lazyScreen(() => import("@/pages/dashboard")),
  botSettings: lazyScreen(() => import("@/pages/bot-settings")),
  categories: lazyScreen(() => import("@/pages/categories")),
  products: lazyScreen(() => import("@/pages/products")),
  postage: lazyScreen(() => import("@/pages/postage")),
  orders: lazyScreen(() => import("@/pages/orders")),
  messages: lazyScreen(() => import("@/pages/messages")),
  customers: lazyScreen(() => import("@/pages/customers")),
  customer: lazyScreen(() => import("@/pages/customer")),
  broadcasts: lazyScreen(() => import("@/pages/broadcasts")),
  botPreview: lazyScreen(() => import("@/pages/bot-preview")),
  activity: lazyScreen(() => import("@/pages/activity")),
  notFound: lazyScreen(() => import("@/pages/not-found")),
};

/** The screen at a path, as the routes map them (for preloading; the routes themselves are authoritative). */
export function screenAt(path: string) {
  if (path === "/") return screens.dashboard;
  const byPrefix: [string, (typeof screens)[keyof typeof screens]][] = [
    ["/bot-settings", screens.botSettings],
    ["/categories", screens.categories],
    ["/products", screens.products],
    ["/postage", screens.postage],
    ["/orders", screens.orders],
    ["/messages", screens.messages],
    ["/customers/", screens.customer],
    ["/customers", screens.customers],
    ["/broadcasts", screens.broadcasts],
    ["/bot-preview", screens.botPreview],
    ["/activity", screens.activity],
  ];
  return byPrefix.find(([prefix]) => path.startsWith(prefix))?.[1];
}
