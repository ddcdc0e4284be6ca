import { DEFAULT_LANGUAGE, type Language, languageOfCode } from "../../contract/languages";

// Every word the storefront Mini App shows (issue 27). The catalogue answers the language its texts
// are in (the customer's, as the bot chooses it: contract/languages.ts); the app's own words follow
// it. English lives here, in the page's main script, so nothing waits for it; the other languages are
// one lazily loaded file each in ./locales/ (a German customer downloads German only, and the page's
// script budget of docs/decisions/0039-mini-app-storefront.md keeps its room). Each is a whole
// `Texts`: TypeScript names every sentence a language still lacks. The wording follows the bot's
// (server/telegram/locales/*.ftl), so the bot and the Mini App name things alike.

const en = {
  appTitle: "Shop",
  outsideTelegramTitle: "Open this shop from its Telegram bot.",
  outsideTelegramBody: "This page is the shop's Mini App: it needs the sign-in Telegram gives it when you open the shop from the bot's menu.",
  loading: "Loading…",
  retry: "Try again",
  loadFailed: "The shop could not be loaded.",
  networkError: "No connection to the shop. Check your connection and try again.",
  back: "Back",

  // Navigation
  navLabel: "Shop sections",
  navShop: "Shop",
  navCart: "Cart",
  navOrders: "My Orders",
  navSupport: "Support",
  cartCount: (count: number) => (count === 1 ? "1 item" : `${count} items`),

  // Catalogue
  searchLabel: "Search products",
  searchPlaceholder: "Search",
  categoryLabel: "Category",
  allCategories: "All categories",
  noProducts: "No products match.",
  emptyShop: "The shop has no products yet.",
  productCount: (count: number) => (count === 1 ? "1 product" : `${count} products`),
  fromPrice: (price: string) => `from ${price}`,

  // Stock
  inStock: "In stock",
  onlyLeft: (left: number | null) => (left === null ? "Low stock" : `Only ${left} left`),
  outOfStock: "Out of stock",
  unavailable: "unavailable",

  // Product
  photoOf: (name: string, index: number, count: number) => `${name}, photo ${index} of ${count}`,
  showPhoto: (index: number) => `Show photo ${index}`,
  noPhoto: "No photo",
  choose: (option: string) => `Choose ${option}`,
  chooseOptionsFirst: "Choose the options first.",
  quantity: "Quantity",
  decrease: "Decrease quantity",
  increase: "Increase quantity",
  bulkTitle: "Bulk prices",
  bulkTier: (minQuantity: number, price: string) => `${price} each from ${minQuantity}`,
  addToCart: "Add to cart",
  addedToCart: "Added to your cart.",
  notEnoughStock: (left: number) => `Only ${left} left: your cart holds the rest.`,

  // Cart
  cartTitle: "Your cart",
  cartEmpty: "Your cart is empty.",
  browse: "Browse the shop",
  remove: (name: string) => `Remove ${name}`,
  removeShort: "Remove",
  each: (price: string) => `${price} each`,
  bulkApplied: (price: string) => `Bulk price: ${price} each`,
  bulkNext: (minQuantity: number, price: string) => `${price} each from ${minQuantity} of this product`,
  itemsTotal: "Items",
  totalAtCheckout: "Postage, coupons and the final total are worked out at checkout.",
  goneFromShop: "No longer sold: removed from your cart.",
  checkout: "Checkout",

  // Checkout
  checkoutTitle: "Checkout",
  deliveryTitle: "Delivery address",
  name: "Name",
  streetAddress: "Street address",
  postcode: "Postcode",
  contact: "Contact (optional)",
  contactHint: "A phone number or email for the courier, if you like.",
  postageTitle: "Postage",
  estimatedDays: (days: number) => (days === 1 ? "about 1 day" : `about ${days} days`),
  choosePostage: "Choose a postage option.",
  coinTitle: "Pay with",
  chooseCoin: "Choose a coin to pay with.",
  noCoins: "Payments are not available right now. Please try again later.",
  couponLabel: "Coupon code",
  apply: "Apply",
  removeCoupon: "Remove coupon",
  couponApplied: (code: string) => `Coupon ${code} applied.`,
  couponNotApplied: "That coupon does not apply to this order.",
  summaryTitle: "Summary",
  discount: (code: string) => `Coupon ${code}`,
  postage: "Postage",
  total: "Total",
  privateAddress: "Your address is encrypted on this device for the shop's owner alone.",
  placeOrder: "Place order & pay",
  totalChanged: "The total changed since you looked. Check the new total and place the order again.",
  fixErrors: "Check the fields marked above.",
  // The address fields' own checks (contract ShippingAddressSchema's rule), in the customer's words.
  fieldRequired: (field: string) => `${field} is required`,
  fieldTooLong: (field: string, max: number) => `${field} can be at most ${max} characters`,

  // Payment
  paymentTitle: "Payment",
  orderReference: (reference: string) => `Order ${reference}`,
  sendExactly: "Send exactly",
  toAddress: "To this address",
  copy: "Copy",
  copyAmount: "Copy the amount",
  copyAddress: "Copy the address",
  copied: "Copied.",
  copyFailed: "Copy failed: select the text and copy it by hand.",
  qrLabel: (coin: string) => `QR code of the ${coin} payment`,
  openWallet: "Open in your wallet",
  openCheckout: "Open the payment page",
  expiresIn: (time: string) => `Expires in ${time}`,
  expired: "The time to pay has run out. If you already sent the coins, contact support.",
  waiting: "Waiting for your payment…",
  paid: "Payment received. Thank you!",
  paidBody: "We will let you know in Telegram when your order is on its way.",
  failed: "The payment did not go through.",
  failedBody: "Nothing more is due on this order. Contact support if you need help.",
  backToShop: "Back to the shop",
  viewOrders: "View my orders",

  // Orders
  ordersTitle: "My Orders",
  noOrders: "You have no orders yet.",
  placedOn: (date: string) => `Placed ${date}`,
  tracking: (carrier: string | null, number: string) => (carrier ? `${carrier}: ${number}` : `Tracking: ${number}`),
  trackParcel: "Track the parcel",
  payNow: "Pay now",
  quantityTimes: (quantity: number, name: string) => `${quantity} × ${name}`,

  // Support
  supportTitle: "Support",
  supportIntro: "Write to the shop: the reply shows here and in the bot.",
  noMessages: "No messages yet.",
  you: "You",
  shop: "Shop",
  messageLabel: "Your message",
  send: "Send",
  sent: "Message sent.",
};

export type Texts = typeof en;

/** A count's plural forms: "other" always, "one", "few", "many" as the language has them (ru, uk: all four). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** Picks a count's form by the language's plural rules (Intl.PluralRules: ru 21 → one, 5 → many). */
export function pluralIn(language: Language): (count: number, forms: PluralForms) => string {
  const rules = new Intl.PluralRules(language);
  return (count, forms) => forms[rules.select(count)] ?? forms.other;
}

/** Each language but English: its own chunk, fetched only when a customer speaks it. */
const DICTIONARIES: Record<Exclude<Language, "en">, () => Promise<{ default: Texts }>> = {
  de: () => import("./locales/de"),
  es: () => import("./locales/es"),
  fr: () => import("./locales/fr"),
  ru: () => import("./locales/ru"),
  uk: () => import("./locales/uk"),
};

/**
 * The words of a language. A dictionary that cannot be fetched (the connection dropped) gives
 * English rather than no shop; the next call tries again.
 */
export async function loadTexts(language: Language | null | undefined): Promise<Texts> {
  if (!language || language === "en") return en;
  try {
    return (await DICTIONARIES[language]()).default;
  } catch {
    return en;
  }
}

export const englishTexts = en;

/**
 * The language of the words shown before the catalogue names the customer's (its "Loading…"), and of
 * the page opened outside Telegram: the customer's Telegram app language (the launch's
 * user.language_code), else the browser's preferred languages in turn, the first the storefront has
 * words for (read as the bot reads Telegram's codes: "de-AT" is German); else English. Only a first
 * guess: the catalogue's language, which the shop chose among those it offers, is the last word.
 */
export function firstLanguage(telegramCode: string | null | undefined, browserLanguages: readonly string[]): Language {
  for (const code of [telegramCode, ...browserLanguages]) {
    const language = languageOfCode(code);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}
