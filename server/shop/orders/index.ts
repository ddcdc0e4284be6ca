// The public face of shop/orders/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { parcelLines } from "./carriers";
export { countCouponUse, holdCouponUse } from "./coupon-uses";
export { amountDueOf, awaitingPayment, type CustomerOrder, describeOrderStatus, getCustomerOrder, getPaymentDetails, orderStatusText, listCustomerOrders, paymentDeadline, paymentUri } from "./customer-orders";
export { type OrderEventAction, recordOrderEvent } from "./order-events";
export { filterConditions, listOrderPage, listOrdersMatching, type OrderFilters, type SearchScope, orderPageQuery, usernameSearchKey } from "./order-list";
export { acceptPayment, awaitingPaymentCondition, cancelOrder, cleanupExpiredOrders, countOrdersAwaitingPayment, deleteOrder, getOrderEvents, getOrderItems, type OrderLine, orderOf, ordersOf, reclaimOrderStock, updateOrderStatus, wasCancelledByOwner } from "./orders";
export { bulkDispatch, DISPATCH_UNDO_WINDOW_MS, type DispatchNoticeDeps, holdDispatchNotice, sendDueDispatchNotices, createDispatchNoticeSender, dispatchNoticeIn, type DispatchNoticeSender, parcelLinesIn, undoDispatch } from "./dispatch-notices";
export { paymentMessages } from "./payment-messages";
export { releaseOrderStock, reserveStock } from "./stock";
