import { pluralIn, type Texts } from "../texts";

// The storefront's words in Russian, as the bot says them (server/telegram/locales/ru.ftl: "вы",
// каталог, корзина, купон, доставка, поддержка). Counts take one/few/many forms (1, 2–4, 5–20 and
// 21 again one). Loaded only for a Russian-speaking customer (../texts.ts).

const plural = pluralIn("ru");
const goods = (count: number) => `${count} ${plural(count, { one: "товар", few: "товара", many: "товаров", other: "товара" })}`;

const ru: Texts = {
  appTitle: "Магазин",
  outsideTelegramTitle: "Откройте этот магазин через его Telegram-бота.",
  outsideTelegramBody: "Эта страница — мини-приложение магазина: ему нужен вход, который Telegram передаёт, когда вы открываете магазин из меню бота.",
  loading: "Загрузка…",
  retry: "Повторить",
  loadFailed: "Не удалось загрузить магазин.",
  networkError: "Нет связи с магазином. Проверьте подключение и попробуйте ещё раз.",
  back: "Назад",

  // Navigation
  navLabel: "Разделы магазина",
  navShop: "Каталог",
  navCart: "Корзина",
  navOrders: "Заказы",
  navSupport: "Поддержка",
  cartCount: goods,

  // Catalogue
  searchLabel: "Поиск товаров",
  searchPlaceholder: "Поиск",
  categoryLabel: "Категория",
  allCategories: "Все категории",
  noProducts: "Ничего не найдено.",
  emptyShop: "В магазине пока нет товаров.",
  productCount: goods,
  fromPrice: (price) => `от ${price}`,

  // Stock
  inStock: "В наличии",
  onlyLeft: (left) => (left === null ? "Осталось мало" : `Осталось ${left} шт.`),
  outOfStock: "Нет в наличии",
  unavailable: "недоступно",

  // Product
  photoOf: (name, index, count) => `${name}, фото ${index} из ${count}`,
  showPhoto: (index) => `Показать фото ${index}`,
  noPhoto: "Нет фото",
  choose: (option) => `${option} на выбор`,
  chooseOptionsFirst: "Сначала выберите параметры.",
  quantity: "Количество",
  decrease: "Уменьшить количество",
  increase: "Увеличить количество",
  bulkTitle: "Оптовые цены",
  bulkTier: (minQuantity, price) => `от ${minQuantity} шт.: ${price} за шт.`,
  addToCart: "В корзину",
  addedToCart: "Добавлено в корзину.",
  notEnoughStock: (left) => `Осталось всего ${left} шт.: остальное уже в вашей корзине.`,

  // Cart
  cartTitle: "Ваша корзина",
  cartEmpty: "Ваша корзина пуста.",
  browse: "Перейти в каталог",
  remove: (name) => `Удалить ${name}`,
  removeShort: "Удалить",
  each: (price) => `${price} за шт.`,
  bulkApplied: (price) => `Оптовая цена: ${price} за шт.`,
  bulkNext: (minQuantity, price) => `${price} за шт. от ${minQuantity} шт. этого товара`,
  itemsTotal: "Товары",
  totalAtCheckout: "Доставка, купоны и итоговая сумма рассчитываются при оформлении заказа.",
  goneFromShop: "Больше не продаётся: убрано из корзины.",
  checkout: "Оформить заказ",

  // Checkout
  checkoutTitle: "Оформление заказа",
  deliveryTitle: "Адрес доставки",
  name: "Имя",
  streetAddress: "Адрес",
  postcode: "Индекс",
  contact: "Контакт (необязательно)",
  contactHint: "Телефон или e-mail для курьера, если хотите.",
  postageTitle: "Доставка",
  estimatedDays: (days) => `примерно ${days} ${plural(days, { one: "день", few: "дня", many: "дней", other: "дня" })}`,
  choosePostage: "Выберите способ доставки.",
  coinTitle: "Оплата",
  chooseCoin: "Выберите криптовалюту для оплаты.",
  noCoins: "Оплата сейчас недоступна. Попробуйте позже.",
  couponLabel: "Код купона",
  apply: "Применить",
  removeCoupon: "Убрать купон",
  couponApplied: (code) => `Купон ${code} применён.`,
  couponNotApplied: "Этот купон не подходит к этому заказу.",
  summaryTitle: "Ваш заказ",
  discount: (code) => `Купон ${code}`,
  postage: "Доставка",
  total: "Итого",
  privateAddress: "Ваш адрес шифруется на этом устройстве: прочитать его сможет только владелец магазина.",
  placeOrder: "Заказать и оплатить",
  totalChanged: "Сумма изменилась. Проверьте новую сумму и оформите заказ ещё раз.",
  fixErrors: "Проверьте отмеченные выше поля.",
  fieldRequired: (field) => `${field}: обязательное поле`,
  fieldTooLong: (field, max) => `${field}: не более ${max} ${plural(max, { one: "символа", other: "символов" })}`,

  // Payment
  paymentTitle: "Оплата",
  orderReference: (reference) => `Заказ ${reference}`,
  sendExactly: "Отправьте ровно",
  toAddress: "На этот адрес",
  copy: "Копировать",
  copyAmount: "Копировать сумму",
  copyAddress: "Копировать адрес",
  copied: "Скопировано.",
  copyFailed: "Не удалось скопировать: выделите текст и скопируйте его вручную.",
  qrLabel: (coin) => `QR-код для оплаты в ${coin}`,
  openWallet: "Открыть в кошельке",
  openCheckout: "Открыть страницу оплаты",
  expiresIn: (time) => `Осталось ${time}`,
  expired: "Время на оплату истекло. Если вы уже отправили монеты, напишите в поддержку.",
  waiting: "Ждём ваш платёж…",
  paid: "Оплата получена. Спасибо!",
  paidBody: "Мы сообщим вам в Telegram, когда заказ будет отправлен.",
  failed: "Платёж не прошёл.",
  failedBody: "По этому заказу больше ничего платить не нужно. Если нужна помощь, напишите в поддержку.",
  backToShop: "Вернуться в каталог",
  viewOrders: "Мои заказы",

  // Orders
  ordersTitle: "Мои заказы",
  noOrders: "У вас пока нет заказов.",
  placedOn: (date) => `Оформлен ${date}`,
  tracking: (carrier, number) => (carrier ? `${carrier}: ${number}` : `Трек-номер: ${number}`),
  trackParcel: "Отследить посылку",
  payNow: "Оплатить",
  quantityTimes: (quantity, name) => `${quantity} × ${name}`,

  // Support
  supportTitle: "Поддержка",
  supportIntro: "Напишите магазину: ответ появится здесь и в боте.",
  noMessages: "Сообщений пока нет.",
  you: "Вы",
  shop: "Магазин",
  messageLabel: "Ваше сообщение",
  send: "Отправить",
  sent: "Сообщение отправлено.",
};

export default ru;
