import { pluralIn, type Texts } from "../texts";

// The storefront's words in French, as the bot says them (server/telegram/locales/fr.ftl: "vous",
// panier, code promo, livraison, service client). Loaded only for a French-speaking customer (../texts.ts).

const plural = pluralIn("fr");

const fr: Texts = {
  appTitle: "Boutique",
  outsideTelegramTitle: "Ouvrez cette boutique depuis son bot Telegram.",
  outsideTelegramBody: "Cette page est la Mini App de la boutique : elle a besoin de la connexion que Telegram lui donne quand vous ouvrez la boutique depuis le menu du bot.",
  loading: "Chargement…",
  retry: "Réessayer",
  loadFailed: "La boutique n’a pas pu être chargée.",
  networkError: "Pas de connexion à la boutique. Vérifiez votre connexion et réessayez.",
  back: "Retour",

  // Navigation
  navLabel: "Rubriques de la boutique",
  navShop: "Boutique",
  navCart: "Panier",
  navOrders: "Commandes",
  navSupport: "Aide",
  cartCount: (count) => `${count} ${plural(count, { one: "article", other: "articles" })}`,

  // Catalogue
  searchLabel: "Rechercher des produits",
  searchPlaceholder: "Rechercher",
  categoryLabel: "Catégorie",
  allCategories: "Toutes les catégories",
  noProducts: "Aucun produit ne correspond.",
  emptyShop: "La boutique n’a pas encore de produits.",
  productCount: (count) => `${count} ${plural(count, { one: "produit", other: "produits" })}`,
  fromPrice: (price) => `à partir de ${price}`,

  // Stock
  inStock: "En stock",
  onlyLeft: (left) => (left === null ? "Stock limité" : `Plus que ${left} en stock`),
  outOfStock: "Épuisé",
  unavailable: "indisponible",

  // Product
  photoOf: (name, index, count) => `${name}, photo ${index} sur ${count}`,
  showPhoto: (index) => `Afficher la photo ${index}`,
  noPhoto: "Pas de photo",
  choose: (option) => `${option} au choix`,
  chooseOptionsFirst: "Veuillez d’abord choisir les options.",
  quantity: "Quantité",
  decrease: "Diminuer la quantité",
  increase: "Augmenter la quantité",
  bulkTitle: "Prix dégressifs",
  bulkTier: (minQuantity, price) => `${price} l’unité à partir de ${minQuantity}`,
  addToCart: "Ajouter au panier",
  addedToCart: "Ajouté à votre panier.",
  notEnoughStock: (left) => `Plus que ${left} en stock : votre panier contient le reste.`,

  // Cart
  cartTitle: "Votre panier",
  cartEmpty: "Votre panier est vide.",
  browse: "Voir les produits",
  remove: (name) => `Retirer ${name}`,
  removeShort: "Retirer",
  each: (price) => `${price} l’unité`,
  bulkApplied: (price) => `Prix dégressif : ${price} l’unité`,
  bulkNext: (minQuantity, price) => `${price} l’unité à partir de ${minQuantity} de ce produit`,
  itemsTotal: "Articles",
  totalAtCheckout: "La livraison, les codes promo et le total final sont calculés à la commande.",
  goneFromShop: "Plus en vente : retiré de votre panier.",
  checkout: "Commander",

  // Checkout
  checkoutTitle: "Commande",
  deliveryTitle: "Adresse de livraison",
  name: "Nom",
  streetAddress: "Adresse",
  postcode: "Code postal",
  contact: "Contact (facultatif)",
  contactHint: "Un numéro de téléphone ou un e-mail pour le livreur, si vous le souhaitez.",
  postageTitle: "Livraison",
  estimatedDays: (days) => `environ ${days} ${plural(days, { one: "jour", other: "jours" })}`,
  choosePostage: "Choisissez un mode de livraison.",
  coinTitle: "Payer en",
  chooseCoin: "Choisissez la cryptomonnaie avec laquelle vous payez.",
  noCoins: "Les paiements ne sont pas disponibles pour le moment. Veuillez réessayer plus tard.",
  couponLabel: "Code promo",
  apply: "Appliquer",
  removeCoupon: "Retirer le code promo",
  couponApplied: (code) => `Code promo ${code} appliqué.`,
  couponNotApplied: "Ce code promo ne s’applique pas à cette commande.",
  summaryTitle: "Récapitulatif",
  discount: (code) => `Code promo ${code}`,
  postage: "Livraison",
  total: "Total",
  privateAddress: "Votre adresse est chiffrée sur cet appareil : seul le propriétaire de la boutique peut la lire.",
  placeOrder: "Commander et payer",
  totalChanged: "Le total a changé entre-temps. Vérifiez le nouveau total et passez la commande à nouveau.",
  fixErrors: "Vérifiez les champs signalés ci-dessus.",
  fieldRequired: (field) => `${field} : champ obligatoire`,
  fieldTooLong: (field, max) => `${field} : ${max} caractères au maximum`,

  // Payment
  paymentTitle: "Paiement",
  orderReference: (reference) => `Commande ${reference}`,
  sendExactly: "Envoyez exactement",
  toAddress: "À cette adresse",
  copy: "Copier",
  copyAmount: "Copier le montant",
  copyAddress: "Copier l’adresse",
  copied: "Copié.",
  copyFailed: "La copie a échoué : sélectionnez le texte et copiez-le à la main.",
  qrLabel: (coin) => `QR code du paiement en ${coin}`,
  openWallet: "Ouvrir dans votre portefeuille",
  openCheckout: "Ouvrir la page de paiement",
  expiresIn: (time) => `Expire dans ${time}`,
  expired: "Le délai de paiement est écoulé. Si vous avez déjà envoyé les fonds, contactez le service client.",
  waiting: "En attente de votre paiement…",
  paid: "Paiement reçu. Merci !",
  paidBody: "Nous vous préviendrons dans Telegram dès que votre commande sera en route.",
  failed: "Le paiement n’a pas abouti.",
  failedBody: "Plus rien n’est dû pour cette commande. Contactez le service client si vous avez besoin d’aide.",
  backToShop: "Retour à la boutique",
  viewOrders: "Voir mes commandes",

  // Orders
  ordersTitle: "Mes commandes",
  noOrders: "Vous n’avez pas encore de commande.",
  placedOn: (date) => `Passée le ${date}`,
  tracking: (carrier, number) => (carrier ? `${carrier} : ${number}` : `Suivi : ${number}`),
  trackParcel: "Suivre le colis",
  payNow: "Payer maintenant",
  quantityTimes: (quantity, name) => `${quantity} × ${name}`,

  // Support
  supportTitle: "Service client",
  supportIntro: "Écrivez à la boutique : la réponse s’affiche ici et dans le bot.",
  noMessages: "Pas encore de message.",
  you: "Vous",
  shop: "Boutique",
  messageLabel: "Votre message",
  send: "Envoyer",
  sent: "Message envoyé.",
};

export default fr;
