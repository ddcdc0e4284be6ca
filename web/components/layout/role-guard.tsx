import { ShieldOff } from "lucide-react";
import type { ReactNode } from "react";
import { Link, Redirect } from "wouter";
import type { Permission } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { cannotOpenText, useAccount, useCan, useRoleLabel } from "@/lib/account";
import { navItemsFor } from "./nav";

// The screens a role cannot open (issue 25; contract/team.ts): a link typed, bookmarked or shared by
// someone with another role shows one sentence instead of a screen whose every read the server would
// refuse (403).

/** The first screen of the sidebar the account may open; null when none (a role with no screen). */
function useFirstScreen(): { href: string; label: string } | null {
  const account = useAccount();
  return (account && navItemsFor(account.role)[0]) ?? null;
}

function CannotOpen() {
  const roleLabel = useRoleLabel();
  const first = useFirstScreen();
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Card className="w-full max-w-md" data-testid="cannot-open">
        <CardContent className="space-y-4 text-center">
          <ShieldOff className="text-muted-foreground mx-auto size-10" aria-hidden="true" />
          <h2 className="text-lg font-semibold">{cannotOpenText(roleLabel)}</h2>
          <p className="text-muted-foreground text-sm">The shop's owner decides what each role can do.</p>
          {first && (
            <Button asChild>
              <Link href={first.href}>Go to {first.label}</Link>
            </Button>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** `children` when the account's role has `permission`, else the sentence saying it cannot open the page. */
export function RoleGuard({ permission, children }: { permission: Permission; children: ReactNode }) {
  return useCan(permission) ? children : <CannotOpen />;
}

/**
 * "/": the Dashboard for the roles with its figures ("insights"); any other role lands on the first
 * screen it may open (a packer on Orders), as the sidebar lists them.
 */
export function HomeGuard({ children }: { children: ReactNode }) {
  const canSeeDashboard = useCan("insights");
  const first = useFirstScreen();
  if (canSeeDashboard) return children;
  return first ? <Redirect to={first.href} replace /> : <CannotOpen />;
}
