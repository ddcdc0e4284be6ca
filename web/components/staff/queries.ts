import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InviteLink, Session, StaffInvited, StaffInviteInput, StaffMember, StaffPatch } from "../../../contract";
import { apiRequest } from "@/lib/api";
import { STAFF_ACCESS_KEY } from "@/lib/owner-keys";

// The Staff screen's and the sessions card's reads and writes (issue 25), under the same key scheme
// as web/lib/queries.ts: a key is the URL's parts, a last object part its query string.

export const staffKeys = {
  all: ["/api/staff"],
  /** This account's sessions, or another account's (the owner's view of a staff member). */
  sessions: (accountId?: string) => (accountId ? ["/api/sessions", { accountId }] : ["/api/sessions"]),
} as const;

export function useStaff(enabled = true) {
  return useQuery<StaffMember[]>({ queryKey: staffKeys.all, enabled, staleTime: 0 });
}

/**
 * A staff write; the list is read again after it, and every sessions list (a role change or disabling
 * ends sessions) and the Staff access list of Bot Settings (a role that cannot read addresses loses its grants).
 */
function useStaffWrite<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: staffKeys.all }),
        queryClient.invalidateQueries({ queryKey: ["/api/sessions"] }),
        queryClient.invalidateQueries({ queryKey: STAFF_ACCESS_KEY }),
      ]),
  });
}

export function useInviteStaff() {
  return useStaffWrite((input: StaffInviteInput) => apiRequest<StaffInvited>("POST", "/api/staff", input));
}

export function useNewInviteLink() {
  return useStaffWrite((id: string) => apiRequest<InviteLink>("POST", `/api/staff/${id}/invite`, {}));
}

export function useUpdateStaff() {
  return useStaffWrite(({ id, patch }: { id: string; patch: StaffPatch }) => apiRequest<StaffMember>("PATCH", `/api/staff/${id}`, patch));
}

export function useDeleteStaff() {
  return useStaffWrite((id: string) => apiRequest("DELETE", `/api/staff/${id}`));
}

// --- Sessions ---

export function useSessions(accountId?: string) {
  return useQuery<Session[]>({ queryKey: staffKeys.sessions(accountId), staleTime: 0 });
}

function useSessionWrite<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ["/api/sessions"] }), queryClient.invalidateQueries({ queryKey: staffKeys.all })]),
  });
}

export function useEndSession() {
  return useSessionWrite((id: string) => apiRequest("DELETE", `/api/sessions/${id}`));
}

export function useEndOtherSessions() {
  return useSessionWrite(() => apiRequest<{ ended: number }>("DELETE", "/api/sessions"));
}
