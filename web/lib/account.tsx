import type { ReactNode } from "react";
import { type Account, type Permission, ROLE_LABELS, roleCan } from "../../contract";
import { useAuthStatus } from "./queries";

// The signed-in account and what its role may do (issue 25). The screens read the same table as the
// server (contract/team.ts ROLE_PERMISSIONS), so a role is shown only what the server would let it do:
// hiding is for clarity, the server's 403 is the rule.

/** The signed-in account (GET /api/auth/status); null while signed out or loading. */
export function useAccount(): Account | null {
  return useAuthStatus().data?.account ?? null;
}

/** Whether the signed-in account's role has `permission`; false without an account (nothing is assumed). */
export function useCan(permission: Permission): boolean {
  const account = useAccount();
  return account !== null && roleCan(account.role, permission);
}

/** "Packer": the role's name as the screens write it. */
export function useRoleLabel(): string | null {
  const account = useAccount();
  return account ? ROLE_LABELS[account.role] : null;
}

/** The sentence a page shows to a role that cannot open it. */
export function cannotOpenText(roleLabel: string | null): string {
  return `Your role (${roleLabel ?? "none"}) cannot open this page.`;
}

/** Its children when the account may do what `permission` names, else `fallback` (nothing by default). */
export function IfCan({ permission, children, fallback = null }: { permission: Permission; children: ReactNode; fallback?: ReactNode }) {
  return useCan(permission) ? children : fallback;
}
