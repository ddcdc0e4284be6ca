import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Coupon, CouponInput, CouponPatch } from "../../../contract";
import { apiRequest } from "@/lib/api";

// The Coupons screen's reads and writes (issue 23), under the same key scheme as web/lib/queries.ts:
// a key is the URL's parts.

export const couponKeys = {
  all: ["/api/coupons"],
} as const;

export function useCoupons() {
  return useQuery<Coupon[]>({ queryKey: couponKeys.all });
}

/** A write that reloads the list after it succeeds. */
function useCouponWrite<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: couponKeys.all }),
  });
}

export function useCreateCoupon() {
  return useCouponWrite((data: CouponInput) => apiRequest<Coupon>("POST", "/api/coupons", data));
}

export function useUpdateCoupon() {
  return useCouponWrite(({ id, data }: { id: string; data: CouponPatch }) => apiRequest<Coupon>("PATCH", `/api/coupons/${id}`, data));
}

export function useDeleteCoupon() {
  return useCouponWrite((id: string) => apiRequest("DELETE", `/api/coupons/${id}`));
}

/**
 * The list's on/off switch: it moves at once (the list's copy is changed before the server answers)
 * and moves back if the server refuses. The state badge (Active, Scheduled, ...) waits for the server's
 * answer: which state a coupon switched on is in is the shop's rule (server/shop/), not the screen's.
 * Switches are sent one after another (one mutation scope): two quick flips of the same coupon reach
 * the server in the order they were made, so the last one wins there as on screen.
 */
export function useSwitchCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: "coupon-switch" },
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) =>
      apiRequest<Coupon>("PATCH", `/api/coupons/${id}`, { isActive } satisfies CouponPatch),
    onMutate: async ({ id, isActive }) => {
      await queryClient.cancelQueries({ queryKey: couponKeys.all });
      const before = queryClient.getQueryData<Coupon[]>(couponKeys.all);
      queryClient.setQueryData<Coupon[]>(couponKeys.all, (list) => list?.map((coupon) => (coupon.id === id ? { ...coupon, isActive } : coupon)));
      return { before };
    },
    onError: (_error, _variables, context) => {
      if (context?.before) queryClient.setQueryData(couponKeys.all, context.before);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData<Coupon[]>(couponKeys.all, (list) => list?.map((coupon) => (coupon.id === saved.id ? saved : coupon)));
    },
    // The server's list is the truth either way (another flip, or a use, may have happened meanwhile).
    onSettled: () => queryClient.invalidateQueries({ queryKey: couponKeys.all }),
  });
}
