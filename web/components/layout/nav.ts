import {
  Bot,
  FolderTree,
  History,
  LayoutDashboard,
  Megaphone,
  MessageSquare,
  Package,
  Settings,
  ShoppingCart,
  TicketPercent,
  Truck,
  UserCog,
  Users,
  type LucideIcon,
} from "lucide-react";
import { type Permission, type Role, roleCan } from "../../../contract";

/** A screen of the sidebar, and the permission (contract/team.ts) its reads need: a role without it does not see the entry. */
export type NavItem = { href: string; label: string; icon: LucideIcon; permission: Permission };

/** The sidebar's entries, in docs/product.md §2's order. */
export const NAV_ITEMS: NavItem[] = [
  { href: "/", label: "Dashboard", icon: LayoutDashboard, permission: "insights" },
  { href: "/bot-settings", label: "Bot Settings", icon: Settings, permission: "bot" },
  { href: "/categories", label: "Categories", icon: FolderTree, permission: "catalogue" },
  { href: "/products", label: "Products", icon: Package, permission: "catalogue" },
  { href: "/postage", label: "Postage", icon: Truck, permission: "catalogue" },
  { href: "/coupons", label: "Coupons", icon: TicketPercent, permission: "catalogue" },
  { href: "/orders", label: "Orders", icon: ShoppingCart, permission: "orders.read" },
  { href: "/messages", label: "Messages", icon: MessageSquare, permission: "messages" },
  { href: "/customers", label: "Customers", icon: Users, permission: "customers.read" },
  // Every broadcast route needs customers.manage, its list too (server/http/routes/broadcasts.ts).
  { href: "/broadcasts", label: "Broadcasts", icon: Megaphone, permission: "customers.manage" },
  { href: "/bot-preview", label: "Bot Preview", icon: Bot, permission: "bot" },
  { href: "/activity", label: "Activity", icon: History, permission: "insights" },
  { href: "/staff", label: "Staff", icon: UserCog, permission: "staff" },
];

/** The sidebar's entries `role` may open. */
export function navItemsFor(role: Role): NavItem[] {
  return NAV_ITEMS.filter((item) => roleCan(role, item.permission));
}

/** The top bar's titles. docs/product.md §2: /postage has no entry, so it (like any unknown path) shows Dashboard. */
const TITLES: Record<string, string> = {
  "/": "Dashboard",
  "/bot-settings": "Bot Settings",
  "/categories": "Categories",
  "/products": "Products",
  "/coupons": "Coupons",
  "/orders": "Orders",
  "/messages": "Messages",
  "/customers": "Customers",
  "/broadcasts": "Broadcasts",
  "/bot-preview": "Bot Preview",
  "/activity": "Activity",
  "/account": "Your account",
  "/staff": "Staff",
};

export function pageTitle(path: string): string {
  // A customer's page (/customers/123) is titled as the list it belongs to.
  return TITLES[path] ?? (path.startsWith("/customers/") ? "Customers" : "Dashboard");
}

/** The tab's title of a signed-in screen: "Orders · Shop Admin" (issue 13). */
export function documentTitle(path: string): string {
  const entry = NAV_ITEMS.find((item) => item.href === path);
  const name = entry?.label ?? TITLES[path] ?? (path.startsWith("/customers/") ? "Customer" : "Page Not Found");
  return `${name} · ${APP_TITLE}`;
}

export const APP_TITLE = "Shop Admin";
