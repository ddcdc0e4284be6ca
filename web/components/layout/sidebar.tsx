import { Bot } from "lucide-react";
import { Link, useLocation } from "wouter";
import { ROLE_LABELS } from "../../../contract";
import { useLiveNavBadges } from "@/hooks/use-live-updates";
import { useAccount } from "@/lib/account";
import { cn } from "@/lib/utils";
import { navItemsFor } from "./nav";

/** The navigation; the same list in the fixed sidebar and in the phone drawer. */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const [location] = useLocation();
  const badges = useLiveNavBadges();
  const account = useAccount();
  // Only the screens the account's role can open (contract/team.ts); the server refuses the rest anyway.
  const items = account ? navItemsFor(account.role) : [];
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 items-center gap-3 border-b px-6">
        <div className="bg-primary text-primary-foreground flex size-8 items-center justify-center rounded-lg">
          <Bot className="size-4" />
        </div>
        <div className="leading-tight">
          <p className="text-sm font-semibold">Shop Admin</p>
          <p className="text-muted-foreground text-xs">Telegram bot shop</p>
        </div>
      </div>
      <nav aria-label="Main" className="flex-1 space-y-1 overflow-y-auto p-3">
        {items.map(({ href, label, icon: Icon }) => {
          const active = href === "/" ? location === "/" : location === href || location.startsWith(`${href}/`);
          const badge = badges[href];
          return (
            <Link
              key={href}
              href={href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={cn(
                "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors",
                active
                  ? "bg-sidebar-primary text-sidebar-primary-foreground shadow-xs"
                  : "text-muted-foreground hover:bg-sidebar-accent hover:text-sidebar-accent-foreground",
              )}
            >
              <Icon className="size-4" />
              {label}
              {badge && badge.count > 0 && (
                <span className="ml-auto text-xs tabular-nums" data-testid={`nav-badge-${href.slice(1)}`}>
                  <span
                    className={cn(
                      "rounded-full px-2 py-0.5 font-semibold",
                      active ? "bg-background text-foreground" : "bg-primary text-primary-foreground",
                    )}
                  >
                    {badge.count}
                  </span>
                  <span className="sr-only"> {badge.label}</span>
                </span>
              )}
            </Link>
          );
        })}
      </nav>
      <div className="text-muted-foreground space-y-1 border-t px-6 py-4 text-xs">
        {account && (
          // Who is signed in, and so what this dashboard shows them (issue 25).
          <p data-testid="signed-in-account" className="leading-tight">
            <span className="text-foreground block truncate text-sm font-medium">{account.name}</span>
            <span>{ROLE_LABELS[account.role]}</span>
          </p>
        )}
        <p>Payments by NOWPayments · GBP</p>
      </div>
    </div>
  );
}
