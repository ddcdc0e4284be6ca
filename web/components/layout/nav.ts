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

/** `permission`: shown only to a role that has it (contract/team.ts); none: shown to every role. */
export type NavItem = { href: string; label: string; icon: LucideIcon; permission?: Permission };

/** The sidebar's entries, in docs/product.md §2's order. */
export const NAV_ITEMS: NavItem[] = [
  { href: "/", label: "Dashboard", icon: LayoutDashboard },
  { href: "/bot-settings", label: "Bot Settings", icon: Settings },
  { href: "/categories", label: "Categories", icon: FolderTree },
  { href: "/products", label: "Products", icon: Package },
  { href: "/postage", label: "Postage", icon: Truck },
  { href: "/coupons", label: "Coupons", icon: TicketPercent },
  { href: "/orders", label: "Orders", icon: ShoppingCart },
  { href: "/messages", label: "Messages", icon: MessageSquare },
  { href: "/customers", label: "Customers", icon: Users },
  { href: "/broadcasts", label: "Broadcasts", icon: Megaphone },
  { href: "/bot-preview", label: "Bot Preview", icon: Bot },
  { href: "/activity", label: "Activity", icon: History },
  { href: "/staff", label: "Staff", icon: UserCog, permission: "staff" },
];

/** The entries a signed-in role sees; before the role is known, those every role sees. */
export function navItemsFor(role: Role | undefined): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.permission || (role !== undefined && roleCan(role, item.permission)));
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
