import { pluralIn, type Texts } from "../texts";

// The storefront's words in Spanish, as the bot says them (server/telegram/locales/es.ftl: "tú",
// carrito, cupón, envío, atención al cliente). Loaded only for a Spanish-speaking customer (../texts.ts).

const plural = pluralIn("es");

const es: Texts = {
  appTitle: "Tienda",
  outsideTelegramTitle: "Abre esta tienda desde su bot de Telegram.",
  outsideTelegramBody: "Esta página es la Mini App de la tienda: necesita el inicio de sesión que Telegram le da cuando abres la tienda desde el menú del bot.",
  loading: "Cargando…",
  retry: "Reintentar",
  loadFailed: "No se ha podido cargar la tienda.",
  networkError: "Sin conexión con la tienda. Comprueba tu conexión e inténtalo de nuevo.",
  back: "Atrás",

  // Navigation
  navLabel: "Secciones de la tienda",
  navShop: "Tienda",
  navCart: "Carrito",
  navOrders: "Pedidos",
  navSupport: "Ayuda",
  cartCount: (count) => `${count} ${plural(count, { one: "artículo", other: "artículos" })}`,

  // Catalogue
  searchLabel: "Buscar productos",
  searchPlaceholder: "Buscar",
  categoryLabel: "Categoría",
  allCategories: "Todas las categorías",
  noProducts: "Ningún producto coincide.",
  emptyShop: "La tienda aún no tiene productos.",
  productCount: (count) => `${count} ${plural(count, { one: "producto", other: "productos" })}`,
  fromPrice: (price) => `desde ${price}`,

  // Stock
  inStock: "Disponible",
  onlyLeft: (left) => (left === null ? "Quedan pocas unidades" : plural(left, { one: `Solo queda ${left}`, other: `Solo quedan ${left}` })),
  outOfStock: "Agotado",
  unavailable: "no disponible",

  // Product
  photoOf: (name, index, count) => `${name}, foto ${index} de ${count}`,
  showPhoto: (index) => `Ver foto ${index}`,
  noPhoto: "Sin foto",
  choose: (option) => `${option} a elegir`,
  chooseOptionsFirst: "Primero elige las opciones.",
  quantity: "Cantidad",
  decrease: "Reducir la cantidad",
  increase: "Aumentar la cantidad",
  bulkTitle: "Precio por cantidad",
  bulkTier: (minQuantity, price) => `${price} c/u desde ${minQuantity} uds.`,
  addToCart: "Añadir al carrito",
  addedToCart: "Añadido a tu carrito.",
  notEnoughStock: (left) => `${plural(left, { one: `Solo queda ${left}`, other: `Solo quedan ${left}` })}: el resto ya está en tu carrito.`,

  // Cart
  cartTitle: "Tu carrito",
  cartEmpty: "Tu carrito está vacío.",
  browse: "Ver productos",
  remove: (name) => `Quitar ${name}`,
  removeShort: "Quitar",
  each: (price) => `${price} c/u`,
  bulkApplied: (price) => `Precio por cantidad: ${price} c/u`,
  bulkNext: (minQuantity, price) => `${price} c/u desde ${minQuantity} uds. de este producto`,
  itemsTotal: "Artículos",
  totalAtCheckout: "El envío, los cupones y el total final se calculan al tramitar el pedido.",
  goneFromShop: "Ya no está a la venta: lo hemos quitado de tu carrito.",
  checkout: "Tramitar pedido",

  // Checkout
  checkoutTitle: "Finalizar compra",
  deliveryTitle: "Dirección de entrega",
  name: "Nombre",
  streetAddress: "Dirección",
  postcode: "Código postal",
  contact: "Contacto (opcional)",
  contactHint: "Un teléfono o un correo para el repartidor, si quieres.",
  postageTitle: "Envío",
  estimatedDays: (days) => plural(days, { one: `${days} día aprox.`, other: `unos ${days} días` }),
  choosePostage: "Elige una forma de envío.",
  coinTitle: "Pagar con",
  chooseCoin: "Elige la criptomoneda con la que vas a pagar.",
  noCoins: "Los pagos no están disponibles ahora mismo. Inténtalo más tarde.",
  couponLabel: "Código de cupón",
  apply: "Aplicar",
  removeCoupon: "Quitar cupón",
  couponApplied: (code) => `Cupón ${code} aplicado.`,
  couponNotApplied: "Ese cupón no se aplica a este pedido.",
  summaryTitle: "Resumen",
  discount: (code) => `Cupón ${code}`,
  postage: "Envío",
  total: "Total",
  privateAddress: "Tu dirección se cifra en este dispositivo: solo el dueño de la tienda puede leerla.",
  placeOrder: "Hacer el pedido y pagar",
  totalChanged: "El total ha cambiado desde que lo viste. Revisa el nuevo total y vuelve a hacer el pedido.",
  fixErrors: "Revisa los campos marcados arriba.",
  fieldRequired: (field) => `${field}: campo obligatorio`,
  fieldTooLong: (field, max) => `${field}: ${max} caracteres como máximo`,

  // Payment
  paymentTitle: "Pago",
  orderReference: (reference) => `Pedido ${reference}`,
  sendExactly: "Envía exactamente",
  toAddress: "A esta dirección",
  copy: "Copiar",
  copyAmount: "Copiar el importe",
  copyAddress: "Copiar la dirección",
  copied: "Copiado.",
  copyFailed: "No se ha podido copiar: selecciona el texto y cópialo a mano.",
  qrLabel: (coin) => `Código QR del pago en ${coin}`,
  openWallet: "Abrir en tu monedero",
  openCheckout: "Abrir la página de pago",
  expiresIn: (time) => `Caduca en ${time}`,
  expired: "Se ha acabado el tiempo para pagar. Si ya enviaste las monedas, contacta con atención al cliente.",
  waiting: "Esperando tu pago…",
  paid: "Pago recibido. ¡Gracias!",
  paidBody: "Te avisaremos en Telegram cuando tu pedido esté en camino.",
  failed: "El pago no se ha completado.",
  failedBody: "No queda nada por pagar en este pedido. Contacta con atención al cliente si necesitas ayuda.",
  backToShop: "Volver a la tienda",
  viewOrders: "Ver mis pedidos",

  // Orders
  ordersTitle: "Mis pedidos",
  noOrders: "Todavía no tienes pedidos.",
  placedOn: (date) => `Realizado el ${date}`,
  tracking: (carrier, number) => (carrier ? `${carrier}: ${number}` : `Seguimiento: ${number}`),
  trackParcel: "Seguir el paquete",
  payNow: "Pagar ahora",
  quantityTimes: (quantity, name) => `${quantity} × ${name}`,

  // Support
  supportTitle: "Atención al cliente",
  supportIntro: "Escribe a la tienda: la respuesta aparece aquí y en el bot.",
  noMessages: "Aún no hay mensajes.",
  you: "Tú",
  shop: "Tienda",
  messageLabel: "Tu mensaje",
  send: "Enviar",
  sent: "Mensaje enviado.",
};

export default es;
