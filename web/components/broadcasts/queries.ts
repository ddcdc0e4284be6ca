import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BroadcastAudience, BroadcastInput, BroadcastProgress, BroadcastReach, BroadcastSummary, BroadcastTestInput } from "../../../contract";
import { apiRequest } from "@/lib/api";

// The Broadcasts screen's reads and writes (issue 14), under the same key scheme as web/lib/queries.ts:
// a key is the URL's parts.

export const broadcastKeys = {
  all: ["/api/broadcasts"],
  progress: (id: string) => ["/api/broadcasts", id],
  reach: (audience: BroadcastAudience) => ["/api/broadcasts/reach", audience],
} as const;

/** How often a broadcast under way is asked for its progress. */
const PROGRESS_POLL_MS = 1_000;

export function useBroadcasts() {
  return useQuery<BroadcastSummary[]>({ queryKey: broadcastKeys.all });
}

/** One broadcast's progress, asked for every second until it is done (then the list reloads once). */
export function useBroadcastProgress(id: string | null) {
  const queryClient = useQueryClient();
  return useQuery<BroadcastProgress>({
    queryKey: broadcastKeys.progress(id ?? ""),
    enabled: id !== null,
    refetchInterval: (query) => {
      if (query.state.data?.status === "done") {
        void queryClient.invalidateQueries({ queryKey: broadcastKeys.all, exact: true });
        return false;
      }
      return PROGRESS_POLL_MS;
    },
  });
}

export function useSendBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BroadcastInput) => apiRequest<{ id: string }>("POST", "/api/broadcasts", input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: broadcastKeys.all, exact: true }),
  });
}

/**
 * How many customers a broadcast to this audience reaches (issue 22, item 2), counted by the server
 * with the queue's own rule; asked afresh each time the confirmation opens (a customer may have sent
 * /stop since).
 */
export function useBroadcastReach(audience: BroadcastAudience | null) {
  return useQuery<BroadcastReach>({
    queryKey: broadcastKeys.reach(audience ?? { kind: "all" }),
    queryFn: () => apiRequest<BroadcastReach>("POST", "/api/broadcasts/reach", { audience }),
    enabled: audience !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** "Send a test to me": the message to the owner's linked chat only. */
export function useSendBroadcastTest() {
  return useMutation({
    mutationFn: (input: BroadcastTestInput) => apiRequest<{ sentTo: string }>("POST", "/api/broadcasts/test", input),
  });
}
