import { pluralIn, type Texts } from "../texts";

// The storefront's words in German, as the bot says them (server/telegram/locales/de.ftl: "du",
// Warenkorb, Gutschein, Versand, Kundenservice). Loaded only for a German customer (../texts.ts).

const plural = pluralIn("de");

const de: Texts = {
  appTitle: "Shop",
  outsideTelegramTitle: "Öffne diesen Shop über seinen Telegram-Bot.",
  outsideTelegramBody: "Diese Seite ist die Mini App des Shops: Sie braucht die Anmeldung, die Telegram ihr gibt, wenn du den Shop über das Menü des Bots öffnest.",
  loading: "Wird geladen…",
  retry: "Erneut versuchen",
  loadFailed: "Der Shop konnte nicht geladen werden.",
  networkError: "Keine Verbindung zum Shop. Prüfe deine Verbindung und versuche es erneut.",
  back: "Zurück",

  // Navigation
  navLabel: "Bereiche des Shops",
  navShop: "Shop",
  navCart: "Warenkorb",
  navOrders: "Bestellungen",
  navSupport: "Hilfe",
  cartCount: (count) => `${count} Artikel`,

  // Catalogue
  searchLabel: "Produkte suchen",
  searchPlaceholder: "Suchen",
  categoryLabel: "Kategorie",
  allCategories: "Alle Kategorien",
  noProducts: "Keine passenden Produkte.",
  emptyShop: "Der Shop hat noch keine Produkte.",
  productCount: (count) => `${count} ${plural(count, { one: "Produkt", other: "Produkte" })}`,
  fromPrice: (price) => `ab ${price}`,

  // Stock
  inStock: "Auf Lager",
  onlyLeft: (left) => (left === null ? "Nur noch wenige da" : `Nur noch ${left} übrig`),
  outOfStock: "Ausverkauft",
  unavailable: "nicht erhältlich",

  // Product
  photoOf: (name, index, count) => `${name}, Foto ${index} von ${count}`,
  showPhoto: (index) => `Foto ${index} zeigen`,
  noPhoto: "Kein Foto",
  choose: (option) => `${option} wählen`,
  chooseOptionsFirst: "Bitte wähle zuerst die Optionen aus.",
  quantity: "Menge",
  decrease: "Menge verringern",
  increase: "Menge erhöhen",
  bulkTitle: "Mengenrabatt",
  bulkTier: (minQuantity, price) => `ab ${minQuantity} Stück: je ${price}`,
  addToCart: "In den Warenkorb",
  addedToCart: "Zum Warenkorb hinzugefügt.",
  notEnoughStock: (left) => `Nur noch ${left} übrig: Der Rest liegt schon in deinem Warenkorb.`,

  // Cart
  cartTitle: "Dein Warenkorb",
  cartEmpty: "Dein Warenkorb ist leer.",
  browse: "Produkte ansehen",
  remove: (name) => `${name} entfernen`,
  removeShort: "Entfernen",
  each: (price) => `je ${price}`,
  bulkApplied: (price) => `Mengenpreis: je ${price}`,
  bulkNext: (minQuantity, price) => `je ${price} ab ${minQuantity} Stück dieses Produkts`,
  itemsTotal: "Artikel",
  totalAtCheckout: "Versand, Gutscheine und die Endsumme werden an der Kasse berechnet.",
  goneFromShop: "Nicht mehr im Angebot: aus deinem Warenkorb entfernt.",
  checkout: "Zur Kasse",

  // Checkout
  checkoutTitle: "Kasse",
  deliveryTitle: "Lieferadresse",
  name: "Name",
  streetAddress: "Adresse",
  postcode: "Postleitzahl",
  contact: "Kontakt (optional)",
  contactHint: "Eine Telefonnummer oder E-Mail für den Zusteller, wenn du möchtest.",
  postageTitle: "Versand",
  estimatedDays: (days) => `etwa ${days} ${plural(days, { one: "Tag", other: "Tage" })}`,
  choosePostage: "Wähle eine Versandart.",
  coinTitle: "Bezahlen mit",
  chooseCoin: "Wähle eine Kryptowährung zum Bezahlen.",
  noCoins: "Bezahlen ist gerade nicht möglich. Bitte versuche es später erneut.",
  couponLabel: "Gutscheincode",
  apply: "Einlösen",
  removeCoupon: "Gutschein entfernen",
  couponApplied: (code) => `Gutschein ${code} eingelöst.`,
  couponNotApplied: "Dieser Gutschein gilt nicht für diese Bestellung.",
  summaryTitle: "Übersicht",
  discount: (code) => `Gutschein ${code}`,
  postage: "Versand",
  total: "Gesamt",
  privateAddress: "Deine Adresse wird auf diesem Gerät verschlüsselt: Nur der Inhaber des Shops kann sie lesen.",
  placeOrder: "Bestellen und bezahlen",
  totalChanged: "Die Summe hat sich inzwischen geändert. Prüfe die neue Summe und bestelle noch einmal.",
  fixErrors: "Prüfe die oben markierten Felder.",
  fieldRequired: (field) => `${field} fehlt`,
  fieldTooLong: (field, max) => `${field}: höchstens ${max} Zeichen`,

  // Payment
  paymentTitle: "Bezahlung",
  orderReference: (reference) => `Bestellung ${reference}`,
  sendExactly: "Sende genau",
  toAddress: "An diese Adresse",
  copy: "Kopieren",
  copyAmount: "Betrag kopieren",
  copyAddress: "Adresse kopieren",
  copied: "Kopiert.",
  copyFailed: "Kopieren fehlgeschlagen: Markiere den Text und kopiere ihn von Hand.",
  qrLabel: (coin) => `QR-Code der ${coin}-Zahlung`,
  openWallet: "In der Wallet öffnen",
  openCheckout: "Zahlungsseite öffnen",
  expiresIn: (time) => `Läuft ab in ${time}`,
  expired: "Die Zeit zum Bezahlen ist abgelaufen. Wenn du die Coins schon gesendet hast, wende dich an den Kundenservice.",
  waiting: "Warte auf deine Zahlung…",
  paid: "Zahlung erhalten. Danke!",
  paidBody: "Wir sagen dir in Telegram Bescheid, sobald deine Bestellung unterwegs ist.",
  failed: "Die Zahlung ist nicht durchgegangen.",
  failedBody: "Für diese Bestellung ist nichts mehr zu zahlen. Wende dich an den Kundenservice, wenn du Hilfe brauchst.",
  backToShop: "Zurück zum Shop",
  viewOrders: "Meine Bestellungen ansehen",

  // Orders
  ordersTitle: "Meine Bestellungen",
  noOrders: "Du hast noch keine Bestellungen.",
  placedOn: (date) => `Bestellt am ${date}`,
  tracking: (carrier, number) => (carrier ? `${carrier}: ${number}` : `Sendungsnummer: ${number}`),
  trackParcel: "Sendung verfolgen",
  payNow: "Jetzt bezahlen",
  quantityTimes: (quantity, name) => `${quantity} × ${name}`,

  // Support
  supportTitle: "Kundenservice",
  supportIntro: "Schreib dem Shop: Die Antwort erscheint hier und im Bot.",
  noMessages: "Noch keine Nachrichten.",
  you: "Du",
  shop: "Shop",
  messageLabel: "Deine Nachricht",
  send: "Senden",
  sent: "Nachricht gesendet.",
};

export default de;
