// The public face of shop/ordering/: what other folders of the shop and the adapters use of it.
// Other folders import only this file (eslint.config.js).

export { checkAddressField } from "./address";
export { addToCart, type Cart, type CartLine, CHOOSE_OPTIONS_FIRST, clearCart, getCart, MAX_CART_QUANTITY, setCartQuantity } from "./cart";
export { acceptedCoins, BTCPAY_WEBHOOK_PATH, checkout, type CheckoutDeps, coinsOnOffer, type CheckoutQuote, type OrderLineInput, offeredCoins, PAYMENT_WEBHOOK_PATH, PAYMENTS_UNAVAILABLE, PAYMENTS_UNAVAILABLE_MESSAGE, quoteCheckout, settleAbandonedCheckouts } from "./checkout";
export { type AppliedCoupon, applyCoupon, CouponRefusedError, createCoupon, deleteCoupon, getCoupon, listCoupons, updateCoupon } from "./coupons";
export { couponRefusal, couponState, discountPence, isEligibleLine, refusalMessage, type CouponRefusalReason } from "./coupon-rules";
export { assertMayOrderMore, MAX_UNPAID_ORDERS, TOO_MANY_UNPAID_ORDERS_MESSAGE } from "./unpaid-orders";
