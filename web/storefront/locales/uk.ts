import { pluralIn, type Texts } from "../texts";

// The storefront's words in Ukrainian, as the bot says them (server/telegram/locales/uk.ftl: "ви",
// каталог, кошик, купон, доставка, підтримка). Counts take one/few/many forms (1, 2–4, 5–20 and
// 21 again one). Loaded only for a Ukrainian-speaking customer (../texts.ts).

const plural = pluralIn("uk");
const goods = (count: number) => `${count} ${plural(count, { one: "товар", few: "товари", many: "товарів", other: "товару" })}`;

const uk: Texts = {
  appTitle: "Магазин",
  outsideTelegramTitle: "Відкрийте цей магазин через його Telegram-бота.",
  outsideTelegramBody: "Ця сторінка — міні-застосунок магазину: йому потрібен вхід, який Telegram передає, коли ви відкриваєте магазин із меню бота.",
  loading: "Завантаження…",
  retry: "Спробувати ще раз",
  loadFailed: "Не вдалося завантажити магазин.",
  networkError: "Немає зв'язку з магазином. Перевірте з'єднання й спробуйте ще раз.",
  back: "Назад",

  // Navigation
  navLabel: "Розділи магазину",
  navShop: "Каталог",
  navCart: "Кошик",
  navOrders: "Замовлення",
  navSupport: "Підтримка",
  cartCount: goods,

  // Catalogue
  searchLabel: "Пошук товарів",
  searchPlaceholder: "Пошук",
  categoryLabel: "Категорія",
  allCategories: "Усі категорії",
  noProducts: "Нічого не знайдено.",
  emptyShop: "У магазині поки немає товарів.",
  productCount: goods,
  fromPrice: (price) => `від ${price}`,

  // Stock
  inStock: "В наявності",
  onlyLeft: (left) => (left === null ? "Залишилося мало" : `Залишилося ${left} шт.`),
  outOfStock: "Немає в наявності",
  unavailable: "недоступно",

  // Product
  photoOf: (name, index, count) => `${name}, фото ${index} з ${count}`,
  showPhoto: (index) => `Показати фото ${index}`,
  noPhoto: "Немає фото",
  choose: (option) => `${option} на вибір`,
  chooseOptionsFirst: "Спершу оберіть параметри.",
  quantity: "Кількість",
  decrease: "Зменшити кількість",
  increase: "Збільшити кількість",
  bulkTitle: "Гуртові ціни",
  bulkTier: (minQuantity, price) => `від ${minQuantity} шт.: ${price} за шт.`,
  addToCart: "До кошика",
  addedToCart: "Додано до кошика.",
  notEnoughStock: (left) => `Залишилося лише ${left} шт.: решта вже у вашому кошику.`,

  // Cart
  cartTitle: "Ваш кошик",
  cartEmpty: "Ваш кошик порожній.",
  browse: "Перейти до каталогу",
  remove: (name) => `Видалити ${name}`,
  removeShort: "Видалити",
  each: (price) => `${price} за шт.`,
  bulkApplied: (price) => `Гуртова ціна: ${price} за шт.`,
  bulkNext: (minQuantity, price) => `${price} за шт. від ${minQuantity} шт. цього товару`,
  itemsTotal: "Товари",
  totalAtCheckout: "Доставку, купони й остаточну суму буде розраховано під час оформлення замовлення.",
  goneFromShop: "Більше не продається: прибрано з кошика.",
  checkout: "Оформити замовлення",

  // Checkout
  checkoutTitle: "Оформлення замовлення",
  deliveryTitle: "Адреса доставки",
  name: "Ім'я",
  streetAddress: "Адреса",
  postcode: "Індекс",
  contact: "Контакт (необов'язково)",
  contactHint: "Телефон або e-mail для кур'єра, якщо хочете.",
  postageTitle: "Доставка",
  estimatedDays: (days) => `приблизно ${days} ${plural(days, { one: "день", few: "дні", many: "днів", other: "дня" })}`,
  choosePostage: "Оберіть спосіб доставки.",
  coinTitle: "Оплата",
  chooseCoin: "Оберіть криптовалюту для оплати.",
  noCoins: "Оплата зараз недоступна. Спробуйте пізніше.",
  couponLabel: "Код купона",
  apply: "Застосувати",
  removeCoupon: "Прибрати купон",
  couponApplied: (code) => `Купон ${code} застосовано.`,
  couponNotApplied: "Цей купон не діє для цього замовлення.",
  summaryTitle: "Ваше замовлення",
  discount: (code) => `Купон ${code}`,
  postage: "Доставка",
  total: "Разом",
  privateAddress: "Вашу адресу зашифровано на цьому пристрої: прочитати її зможе лише власник магазину.",
  placeOrder: "Замовити й оплатити",
  totalChanged: "Сума змінилася. Перевірте нову суму й оформіть замовлення ще раз.",
  fixErrors: "Перевірте позначені вище поля.",
  fieldRequired: (field) => `${field}: обов'язкове поле`,
  fieldTooLong: (field, max) => `${field}: не більше ${max} ${plural(max, { one: "символу", other: "символів" })}`,

  // Payment
  paymentTitle: "Оплата",
  orderReference: (reference) => `Замовлення ${reference}`,
  sendExactly: "Надішліть рівно",
  toAddress: "На цю адресу",
  copy: "Копіювати",
  copyAmount: "Копіювати суму",
  copyAddress: "Копіювати адресу",
  copied: "Скопійовано.",
  copyFailed: "Не вдалося скопіювати: виділіть текст і скопіюйте його вручну.",
  qrLabel: (coin) => `QR-код для оплати в ${coin}`,
  openWallet: "Відкрити в гаманці",
  openCheckout: "Відкрити сторінку оплати",
  expiresIn: (time) => `Залишилося ${time}`,
  expired: "Час на оплату минув. Якщо ви вже надіслали монети, напишіть до підтримки.",
  waiting: "Чекаємо на ваш платіж…",
  paid: "Оплату отримано. Дякуємо!",
  paidBody: "Ми повідомимо вас у Telegram, коли замовлення буде відправлено.",
  failed: "Платіж не пройшов.",
  failedBody: "За цим замовленням більше нічого платити не потрібно. Якщо потрібна допомога, напишіть до підтримки.",
  backToShop: "Повернутися до каталогу",
  viewOrders: "Мої замовлення",

  // Orders
  ordersTitle: "Мої замовлення",
  noOrders: "У вас поки немає замовлень.",
  placedOn: (date) => `Оформлено ${date}`,
  tracking: (carrier, number) => (carrier ? `${carrier}: ${number}` : `Трек-номер: ${number}`),
  trackParcel: "Відстежити посилку",
  payNow: "Оплатити",
  quantityTimes: (quantity, name) => `${quantity} × ${name}`,

  // Support
  supportTitle: "Підтримка",
  supportIntro: "Напишіть магазину: відповідь з'явиться тут і в боті.",
  noMessages: "Повідомлень поки немає.",
  you: "Ви",
  shop: "Магазин",
  messageLabel: "Ваше повідомлення",
  send: "Надіслати",
  sent: "Повідомлення надіслано.",
};

export default uk;
