import {
  Bot,
  FolderTree,
  LayoutDashboard,
  MessageSquare,
  Package,
  Settings,
  ShoppingCart,
  Truck,
  type LucideIcon,
} from "lucide-react";

export type NavItem = { href: string; label: string; icon: LucideIcon };

/** The sidebar's entries, in SPEC §2's order. */
export const NAV_ITEMS: NavItem[] = [
  { href: "/", label: "Dashboard", icon: LayoutDashboard },
  { href: "/bot-settings", label: "Bot Settings", icon: Settings },
  { href: "/categories", label: "Categories", icon: FolderTree },
  { href: "/products", label: "Products", icon: Package },
  { href: "/postage", label: "Postage", icon: Truck },
  { href: "/orders", label: "Orders", icon: ShoppingCart },
  { href: "/messages", label: "Messages", icon: MessageSquare },
  { href: "/bot-preview", label: "Bot Preview", icon: Bot },
];

/** The top bar's titles. SPEC §2: /postage has no entry, so it (like any unknown path) shows Dashboard. */
const TITLES: Record<string, string> = {
  "/": "Dashboard",
  "/bot-settings": "Bot Settings",
  "/categories": "Categories",
  "/products": "Products",
  "/orders": "Orders",
  "/messages": "Messages",
  "/bot-preview": "Bot Preview",
};

export function pageTitle(path: string): string {
  return TITLES[path] ?? "Dashboard";
}
