import { LogOut, Menu, UserRound } from "lucide-react";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { Avatar, AvatarFallback } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { setPaidOrderAlerts, usePaidOrderAlerts } from "@/lib/live";
import { useAccount, useRoleLabel } from "@/lib/account";
import { accountInitials } from "@/lib/initials";
import { useLogout } from "@/lib/queries";
import { setThemeChoice, type ThemeChoice, useThemeChoice } from "@/lib/theme";
import { AllowNotifications } from "./allow-notifications";
import { pageTitle } from "./nav";
import { SidebarNav } from "./sidebar";

export function TopBar() {
  const [location] = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const logout = useLogout();
  const paidOrderAlerts = usePaidOrderAlerts();
  const theme = useThemeChoice();
  const account = useAccount();
  const roleLabel = useRoleLabel();

  return (
    <header className="bg-background/95 supports-[backdrop-filter]:bg-background/80 sticky top-0 z-40 flex h-16 items-center gap-3 border-b px-4 backdrop-blur sm:px-6">
      <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open navigation" onClick={() => setDrawerOpen(true)}>
        <Menu className="size-5" />
      </Button>
      <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
        <SheetContent side="left" className="bg-sidebar w-72 gap-0 p-0 sm:max-w-72" aria-describedby={undefined}>
          <SheetTitle className="sr-only">Navigation</SheetTitle>
          <SheetDescription className="sr-only">Go to a section of the dashboard</SheetDescription>
          <SidebarNav onNavigate={() => setDrawerOpen(false)} />
        </SheetContent>
      </Sheet>

      <h1 data-testid="page-title" className="flex-1 truncate text-lg font-semibold">
        {pageTitle(location)}
      </h1>

      <AllowNotifications />

      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          {/* The signed-in account, by its name and initials as the Staff screen names accounts. Named by
              its content, "Sue Support user menu": the visible name (read out on phones too, where it is
              hidden) starts the name, as WCAG 2.5.3 asks (axe's label-content-name-mismatch). */}
          <Button variant="ghost" className="gap-2 px-2">
            <Avatar className="size-8" aria-hidden="true">
              <AvatarFallback className="bg-primary text-primary-foreground text-xs font-semibold">
                {account ? accountInitials(account) : <UserRound className="size-4" />}
              </AvatarFallback>
            </Avatar>
            <span className="sr-only text-sm font-medium sm:not-sr-only">
              <span data-testid="account-name" className="block max-w-40 truncate">
                {account?.name ?? "Account"}
              </span>
            </span>
            <span className="sr-only"> user menu</span>
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-48">
          <DropdownMenuLabel>
            <p className="truncate text-sm font-medium">{account?.name ?? "Administrator"}</p>
            <p className="text-muted-foreground text-xs font-normal">{roleLabel ? `Signed in as ${roleLabel}` : "Signed in"}</p>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          {/* Issue 25: the account's own sign-in settings (two-factor). */}
          <DropdownMenuItem asChild>
            <Link href="/account">
              <UserRound />
              Your account
            </Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          {/* Off by default; turning it on is what asks the browser's notification permission. */}
          <DropdownMenuCheckboxItem checked={paidOrderAlerts} onCheckedChange={(on) => void setPaidOrderAlerts(on)}>
            Paid order alerts
          </DropdownMenuCheckboxItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel className="text-muted-foreground text-xs font-normal">Theme</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={theme} onValueChange={(value) => setThemeChoice(value as ThemeChoice)} aria-label="Theme">
            <DropdownMenuRadioItem value="system">System</DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="light">Light</DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="dark">Dark</DropdownMenuRadioItem>
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => logout.mutate()} disabled={logout.isPending}>
            <LogOut />
            Logout
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </header>
  );
}
