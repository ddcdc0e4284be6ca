import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from "@tanstack/react-query";
import type {
  AuthStatus,
  BotSettings,
  BotSettingsInput,
  BulkDispatch,
  BulkDispatchResult,
  Category,
  CategoryInput,
  Conversation,
  CustomerMessage,
  DashboardStats,
  LoginInput,
  MessageInput,
  Order,
  OrderEvent,
  OrderItem,
  OrderStatus,
  PaymentGateways,
  PaymentGatewaysInput,
  PostageOption,
  PostageOptionInput,
  Product,
  ProductInput,
  ProductVariantsInput,
  SetupChecklist,
  WebhookAddresses,
} from "../../contract";
import { apiRequest, AUTH_STATUS_KEY, getPageFn, LOGIN_MUTATION_KEY, getQueryFn, type ListParams, PAGE_MARK, type ServerPage } from "./api";
import { rememberSettledHere } from "./settled-here";

/** docs/product.md §9: the Dashboard shows 3 recent orders and 3 recent customer messages. */
export const DASHBOARD_RECENT_COUNT = 3;

/**
 * The one query-key scheme: a key is the URL's parts, so the default read (which joins them
 * with "/") needs no per-query function, and invalidating a prefix reloads everything under it
 * (["/api/orders"] also covers ["/api/orders", id, "items"]).
 */
export const queryKeys = {
  authStatus: AUTH_STATUS_KEY,
  dashboardStats: ["/api/dashboard/stats"],
  /** The Dashboard's setup checklist and payment state (issue 22, item 8). */
  setupChecklist: ["/api/dashboard/setup"],
  /** The webhook addresses built from the server's PUBLIC_URL (null parts without it). */
  webhookAddresses: ["/api/webhook-addresses"],
  products: ["/api/products"],
  /** One page of the Products screen (server paging, search and filters, issue 12). */
  productPage: (params: ListParams) => ["/api/products", PAGE_MARK, params],
  categories: ["/api/categories"],
  orders: ["/api/orders"],
  /** The Dashboard's Recent Orders: only the 3 it shows (issue 12). */
  recentOrders: ["/api/orders", { limit: DASHBOARD_RECENT_COUNT }],
  /** One page of the Orders screen (server paging, issue 12). */
  orderPage: (params: ListParams) => ["/api/orders", PAGE_MARK, params],
  /** One order by its id (the search matches an id's start, so the whole id finds just it). */
  order: (orderId: string) => ["/api/orders", { q: orderId }],
  orderItems: (orderId: string) => ["/api/orders", orderId, "items"],
  orderEvents: (orderId: string) => ["/api/orders", orderId, "events"],
  postageOptions: ["/api/postage-options"],
  messages: ["/api/messages"],
  /** The Dashboard's Recent Messages: the 3 latest sent by customers. */
  recentCustomerMessages: ["/api/messages", { limit: DASHBOARD_RECENT_COUNT, sender: "customer" }],
  conversations: ["/api/messages/conversations"],
  conversationPage: (params: ListParams) => ["/api/messages/conversations", PAGE_MARK, params],
  userMessages: (telegramUserId: string) => ["/api/messages/user", telegramUserId],
  unreadCount: ["/api/messages/unread-count"],
  botSettings: ["/api/bot-settings"],
  /** NOWPayments and BTCPay Server, and which takes each coin (issue 24). */
  paymentGateways: ["/api/payment-gateways"],
} as const;

/** A write that reloads the given lists after it succeeds. */
function useWrite<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>, reloads: readonly QueryKey[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all(reloads.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

// Order and message writes change the dashboard's counters and the unread badge too.
const ORDER_LISTS = [queryKeys.orders, queryKeys.dashboardStats, queryKeys.unreadCount] as const;
const MESSAGE_LISTS = [
  queryKeys.messages,
  queryKeys.conversations,
  ["/api/messages/user"],
  queryKeys.unreadCount,
  queryKeys.dashboardStats,
] as const;
const PRODUCT_LISTS = [queryKeys.products, queryKeys.dashboardStats] as const;
// A save may set the token and the gateway's keys: the setup checklist's steps and "Setup needed" follow,
// and so does the Payment gateways card, which shows whether NOWPayments has its keys.
const BOT_SETTINGS_LISTS = [queryKeys.botSettings, queryKeys.setupChecklist, queryKeys.paymentGateways] as const;

// --- Auth ---

export function useAuthStatus() {
  const query = useQuery<AuthStatus | null>({
    queryKey: queryKeys.authStatus,
    queryFn: getQueryFn({ on401: "returnNull" }),
  });
  return { ...query, isAuthenticated: query.data?.authenticated === true };
}

/** docs/product.md §4: the status is reloaded 100 ms after a successful login. */
export const AUTH_RELOAD_DELAY_MS = 100;

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: LOGIN_MUTATION_KEY,
    mutationFn: (input: LoginInput) => apiRequest<{ success: boolean }>("POST", "/api/auth/login", input),
    onSuccess: () => {
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: queryKeys.authStatus }), AUTH_RELOAD_DELAY_MS);
    },
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest("POST", "/api/auth/logout", {}),
    onSettled: async () => {
      await queryClient.cancelQueries();
      // Showing the login first unmounts every screen; then nothing of the session stays cached.
      queryClient.setQueryData<AuthStatus>(queryKeys.authStatus, { authenticated: false });
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.authStatus[0] });
    },
  });
}

// --- Dashboard ---

/** `enabled` false for a role without "insights" (contract/team.ts): the server would refuse it. */
export function useDashboardStats(enabled = true) {
  return useQuery<DashboardStats>({ queryKey: queryKeys.dashboardStats, enabled });
}

/**
 * The setup checklist, asked afresh each time the Dashboard opens: its steps are done on other screens
 * (and by the simulator's orders), and one small read per visit is cheaper than every write reloading it.
 */
export function useSetupChecklist() {
  return useQuery<SetupChecklist>({ queryKey: queryKeys.setupChecklist, refetchOnMount: "always" });
}

/** Where Telegram and the gateway must call the shop, as the server knows it (PUBLIC_URL). */
export function useWebhookAddresses() {
  return useQuery<WebhookAddresses>({ queryKey: queryKeys.webhookAddresses });
}

// --- Products ---

/** Every product (the Categories screen counts them per category, docs/product.md §9). */
export function useProducts() {
  return useQuery<Product[]>({ queryKey: queryKeys.products });
}

/** One page of products from the server, filtered there; the last page stays on screen while the next loads. */
export function useProductPage(params: ListParams) {
  return useQuery<ServerPage<Product>>({
    queryKey: queryKeys.productPage(params),
    queryFn: getPageFn<Product>(),
    placeholderData: keepPreviousData,
  });
}

export function useCreateProduct() {
  return useWrite((data: ProductInput) => apiRequest<Product>("POST", "/api/products", data), PRODUCT_LISTS);
}

export function useUpdateProduct() {
  return useWrite(
    ({ id, data }: { id: string; data: ProductInput }) => apiRequest<Product>("PUT", `/api/products/${id}`, data),
    PRODUCT_LISTS,
  );
}

/**
 * Reads the product list from the server now (not the cache) and answers it; the page on screen
 * reloads too. The edit form uses it to reload a stock that changed while it was open.
 */
export function useReloadProducts() {
  const queryClient = useQueryClient();
  return async () => {
    const products = await queryClient.fetchQuery<Product[]>({ queryKey: queryKeys.products, staleTime: 0 });
    void queryClient.invalidateQueries({ queryKey: [queryKeys.products[0], PAGE_MARK] });
    return products;
  };
}

/** Issue 23: a product's options and variants, replaced as one set (409 when a changed stock was stale). */
export function useSaveVariants() {
  return useWrite(
    ({ id, data }: { id: string; data: ProductVariantsInput }) => apiRequest<Product>("PUT", `/api/products/${id}/variants`, data),
    PRODUCT_LISTS,
  );
}

/** One product as the server has it now, with its variants (the variants editor reloads a stale stock from it). */
export function fetchProduct(id: string) {
  return apiRequest<Product>("GET", `/api/products/${id}`);
}

export function useDeleteProduct() {
  return useWrite((id: string) => apiRequest("DELETE", `/api/products/${id}`), PRODUCT_LISTS);
}

// --- Categories ---

export function useCategories() {
  return useQuery<Category[]>({ queryKey: queryKeys.categories });
}

export function useCreateCategory() {
  return useWrite((data: CategoryInput) => apiRequest<Category>("POST", "/api/categories", data), [queryKeys.categories]);
}

export function useUpdateCategory() {
  return useWrite(
    ({ id, data }: { id: string; data: CategoryInput }) => apiRequest<Category>("PUT", `/api/categories/${id}`, data),
    [queryKeys.categories],
  );
}

/** Its products become uncategorised, so the products reload too. */
export function useDeleteCategory() {
  return useWrite((id: string) => apiRequest("DELETE", `/api/categories/${id}`), [queryKeys.categories, queryKeys.products]);
}

// --- Product images ---

export function useRequestUploadUrl() {
  return useMutation({ mutationFn: () => apiRequest<{ uploadURL: string }>("POST", "/api/objects/upload") });
}

export function useSetProductImage() {
  return useMutation({
    mutationFn: (input: { imageURL: string }) => apiRequest<{ objectPath: string }>("PUT", "/api/product-images", input),
  });
}

// --- Orders ---

/** The Dashboard's 3 most recent orders. */
export function useRecentOrders(enabled = true) {
  return useQuery<Order[]>({ queryKey: queryKeys.recentOrders, enabled });
}

/**
 * One page of orders from the server; while the next page loads, the last one stays on screen
 * (placeholder) so the table does not blink.
 */
export function useOrderPage(params: ListParams) {
  return useQuery<ServerPage<Order>>({
    queryKey: queryKeys.orderPage(params),
    queryFn: getPageFn<Order>(),
    placeholderData: keepPreviousData,
  });
}

/**
 * How many orders match these filters (the server's X-Total-Count of a one-row page), read only while
 * `enabled`: "Select all N matching" counts those among them Ready to Dispatch (issue 22).
 */
export function useOrderCount(params: ListParams, enabled: boolean) {
  const query = useQuery<ServerPage<Order>>({
    queryKey: queryKeys.orderPage({ ...params, limit: 1 }),
    queryFn: getPageFn<Order>(),
    enabled,
  });
  return enabled ? (query.data?.total ?? null) : null;
}

/** One order, whatever page it is on (the details dialog keeps showing it after it leaves the page). */
export function useOrder(orderId: string | null) {
  const query = useQuery<Order[]>({ queryKey: queryKeys.order(orderId ?? ""), enabled: orderId !== null });
  return query.data?.find((order) => order.id === orderId) ?? null;
}

export function useOrderItems(orderId: string | null) {
  return useQuery<OrderItem[]>({ queryKey: queryKeys.orderItems(orderId ?? ""), enabled: orderId !== null });
}

/** The order's audit trail (who, when, what), oldest first; only when an order is selected. */
export function useOrderEvents(orderId: string | null) {
  return useQuery<OrderEvent[]>({ queryKey: queryKeys.orderEvents(orderId ?? ""), enabled: orderId !== null });
}

// Accepting or cancelling moves stock and revenue too (a cancel puts the order's stock back).
const ORDER_SETTLEMENT_LISTS = [...ORDER_LISTS, queryKeys.products] as const;

/** The owner accepts the money that arrived (short, or after expiry): the order becomes Ready to Dispatch. */
export function useAcceptPayment() {
  return useWrite(async (id: string) => {
    // The live order-paid event this causes is the owner's own doing: no paid-order alert for it.
    rememberSettledHere(id);
    const order = await apiRequest<Order>("POST", `/api/orders/${id}/accept-payment`);
    rememberSettledHere(id);
    return order;
  }, ORDER_SETTLEMENT_LISTS);
}

/** The owner cancels a pending order: it fails, its stock goes back, the customer is told. */
export function useCancelOrder() {
  return useWrite((id: string) => apiRequest<Order>("POST", `/api/orders/${id}/cancel`), ORDER_SETTLEMENT_LISTS);
}

/** Moves an order on; a dispatch may carry the carrier and tracking number (left out when not given). */
export function useUpdateOrderStatus() {
  return useWrite(
    ({ id, ...change }: { id: string; status: OrderStatus; carrier?: string; trackingNumber?: string }) =>
      apiRequest<Order>("PUT", `/api/orders/${id}`, change),
    ORDER_LISTS,
  );
}

export function useDeleteOrder() {
  return useWrite((id: string) => apiRequest("DELETE", `/api/orders/${id}`), ORDER_LISTS);
}

export function useCleanupExpiredOrders() {
  return useWrite(
    () => apiRequest<{ expiredOrderIds: string[] }>("POST", "/api/orders/cleanup-expired", {}),
    [...ORDER_LISTS, queryKeys.products],
  );
}

/** Holds the customer's dispatch message for the undo window (heldUntil), or sends it at once (null). */
export function useNotifyDispatch() {
  return useWrite(
    ({ id, note }: { id: string; note?: string }) =>
      apiRequest<{ success: true; heldUntil: string | null }>("POST", `/api/orders/${id}/notify-dispatch`, note ? { note } : {}),
    ORDER_LISTS,
  );
}

/**
 * The ticked orders, or every order a filter matches, dispatched in one request (issue 22); the server
 * skips those not Ready to Dispatch and says why.
 */
export function useBulkDispatch() {
  return useWrite((target: BulkDispatch) => apiRequest<BulkDispatchResult>("POST", "/api/orders/bulk-dispatch", target), ORDER_LISTS);
}

/** Takes a dispatch back while its customer's message is still held: Ready to Dispatch again. */
export function useUndoDispatch() {
  return useWrite((id: string) => apiRequest<Order>("POST", `/api/orders/${id}/undo-dispatch`), ORDER_LISTS);
}

// --- Postage ---

export function usePostageOptions(enabled = true) {
  return useQuery<PostageOption[]>({ queryKey: queryKeys.postageOptions, enabled });
}

export function useCreatePostageOption() {
  return useWrite(
    (data: PostageOptionInput) => apiRequest<PostageOption>("POST", "/api/postage-options", data),
    [queryKeys.postageOptions],
  );
}

export function useUpdatePostageOption() {
  return useWrite(
    ({ id, data }: { id: string; data: Partial<PostageOptionInput> }) =>
      apiRequest<PostageOption>("PATCH", `/api/postage-options/${id}`, data),
    [queryKeys.postageOptions],
  );
}

export function useDeletePostageOption() {
  return useWrite((id: string) => apiRequest("DELETE", `/api/postage-options/${id}`), [queryKeys.postageOptions]);
}

// --- Messages ---

/** The Dashboard's 3 latest messages sent by customers. */
export function useRecentCustomerMessages(enabled = true) {
  return useQuery<CustomerMessage[]>({ queryKey: queryKeys.recentCustomerMessages, enabled });
}

/** One page of conversations (one row per customer), latest first. */
export function useConversationPage(params: ListParams) {
  return useQuery<ServerPage<Conversation>>({
    queryKey: queryKeys.conversationPage(params),
    queryFn: getPageFn<Conversation>(),
    placeholderData: keepPreviousData,
  });
}

export function useUserMessages(telegramUserId: string | null) {
  return useQuery<CustomerMessage[]>({
    queryKey: queryKeys.userMessages(telegramUserId ?? ""),
    enabled: telegramUserId !== null,
  });
}

export function useUnreadCount(enabled = true) {
  return useQuery<{ count: number }>({ queryKey: queryKeys.unreadCount, enabled });
}

export function useSendMessage() {
  return useWrite((data: MessageInput) => apiRequest<CustomerMessage>("POST", "/api/messages", data), MESSAGE_LISTS);
}

export function useMarkMessageRead() {
  return useWrite((id: string) => apiRequest("PUT", `/api/messages/${id}/read`), MESSAGE_LISTS);
}

// --- Bot settings ---

export function useBotSettings(options: { enabled?: boolean } = {}) {
  return useQuery<BotSettings | null>({ queryKey: queryKeys.botSettings, enabled: options.enabled ?? true });
}

export function useCreateBotSettings() {
  return useWrite((data: BotSettingsInput) => apiRequest<BotSettings>("POST", "/api/bot-settings", data), BOT_SETTINGS_LISTS);
}

export function useUpdateBotSettings() {
  return useWrite(
    ({ id, data }: { id: string; data: BotSettingsInput }) => apiRequest<BotSettings>("PUT", `/api/bot-settings/${id}`, data),
    BOT_SETTINGS_LISTS,
  );
}

// --- Payment gateways (issue 24) ---

export function usePaymentGateways() {
  return useQuery<PaymentGateways>({ queryKey: queryKeys.paymentGateways });
}

/**
 * PUT /api/payment-gateways with only what changed; answers the saved gateways, secrets masked. The
 * setup checklist follows (a coin may now be payable).
 */
export function useSavePaymentGateways() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (data: PaymentGatewaysInput) => apiRequest<PaymentGateways>("PUT", "/api/payment-gateways", data),
    onSuccess: (answer) => {
      // The answer is what is stored now (the webhook's state may follow a new store): no read again.
      queryClient.setQueryData(queryKeys.paymentGateways, answer);
      return queryClient.invalidateQueries({ queryKey: queryKeys.setupChecklist });
    },
  });
}

/** Registers the shop's webhook on the BTCPay store (409 without PUBLIC_URL); the gateways are read again for its state. */
export function useRegisterBtcpayWebhook() {
  return useWrite(() => apiRequest<unknown>("POST", "/api/payment-gateways/btcpay/webhook"), [queryKeys.paymentGateways]);
}

/**
 * The Bot Preview tester: the text must be valid JSON, else it fails here and nothing is sent;
 * answers the server's parsed reply (null when it has no body).
 */
export function useTestTelegramWebhook() {
  return useMutation({
    mutationFn: async (rawJson: string) => {
      const update: unknown = JSON.parse(rawJson);
      return apiRequest<unknown>("POST", "/api/telegram/webhook", update);
    },
  });
}
