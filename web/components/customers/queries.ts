import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Customer, CustomerBlockState, CustomerDetail, CustomerNote, ForgetResult } from "../../../contract";
import { apiRequest, getPageFn, type ListParams, PAGE_MARK, type ServerPage } from "@/lib/api";

// The Customers screen's reads and writes (issue 13), under the same key scheme as web/lib/queries.ts:
// a key is the URL's parts, so invalidating ["/api/customers"] reloads the list and every customer's page.

export const customerKeys = {
  all: ["/api/customers"],
  page: (params: ListParams) => ["/api/customers", PAGE_MARK, params],
  detail: (telegramUserId: string) => ["/api/customers", telegramUserId],
  note: (telegramUserId: string) => ["/api/customers", telegramUserId, "notes"],
} as const;

/** One page of customers from the server; the last page stays on screen while the next loads. */
export function useCustomerPage(params: ListParams) {
  return useQuery<ServerPage<Customer>>({
    queryKey: customerKeys.page(params),
    queryFn: getPageFn<Customer>(),
    placeholderData: keepPreviousData,
  });
}

/** A customer's numbers, newest orders and latest messages. */
export function useCustomerDetail(telegramUserId: string) {
  return useQuery<CustomerDetail>({ queryKey: customerKeys.detail(telegramUserId) });
}

/** Blocks or unblocks a customer; the list and their page reload after. */
export function useSetCustomerBlocked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ telegramUserId, blocked }: { telegramUserId: string; blocked: boolean }) =>
      apiRequest<CustomerBlockState>("POST", `/api/customers/${telegramUserId}/${blocked ? "block" : "unblock"}`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.all }),
  });
}

/** Erases a customer's addresses, messages and username (issue 15); every list that shows them reloads. */
export function useForgetCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (telegramUserId: string) => apiRequest<ForgetResult>("POST", `/api/customers/${telegramUserId}/forget`, {}),
    onSuccess: () =>
      Promise.all(["/api/customers", "/api/orders", "/api/messages"].map((root) => queryClient.invalidateQueries({ queryKey: [root] }))),
  });
}

/** The owner's note about a customer (issue 22 item 9); the live `customers` event reloads it with the rest. */
export function useCustomerNote(telegramUserId: string) {
  return useQuery<CustomerNote>({ queryKey: customerKeys.note(telegramUserId) });
}

/** Saves the note whole (the last save wins); its answer becomes the note shown, with no second read. */
export function useSaveCustomerNote(telegramUserId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => apiRequest<CustomerNote>("PUT", `/api/customers/${telegramUserId}/notes`, { note }),
    onSuccess: (saved) => queryClient.setQueryData(customerKeys.note(telegramUserId), saved),
  });
}
