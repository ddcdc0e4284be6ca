// The public face of shop/storefront/ (issue 27): what the Telegram Mini App's API reads and does,
// on top of the bot's own rules (catalogue, ordering, orders, customers). Other folders import only this file.

export { storefrontCatalogue } from "./catalogue";
export { meetStorefrontCustomer, type StorefrontCustomer } from "./customer";
export { sendStorefrontMessage, STOREFRONT_MESSAGES_SHOWN, storefrontThread } from "./messages";
export { getStorefrontOrder, listStorefrontOrders, placeStorefrontOrder, quoteStorefrontOrder, STOREFRONT_ORDERS_SHOWN } from "./orders";
