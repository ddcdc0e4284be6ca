# Тексты бота на русском. Те же ключи и переменные, что и в en.ftl (locales.test.ts).

## Главное меню и общие кнопки
menu-browse = Каталог
menu-cart = Корзина
menu-orders = Мои заказы
menu-support = Поддержка
menu-about = О магазине
menu-open-shop = 🛍 Открыть магазин
main-menu-text = Главное меню: что вы хотите сделать?
main-menu-button = « Главное меню
back-button = « Назад
cancel-button = Отмена
pager-previous = ‹ Назад
pager-page = Страница { $page } из { $pages }
pager-next = Далее ›
warning = ⚠️ { $text }
error-generic = Извините, что-то пошло не так. Попробуйте ещё раз.
blocked = Извините, этот магазин для вас недоступен.
too-many-requests = Слишком много запросов. Подождите минуту и попробуйте снова.
button-invalid = Эта кнопка больше не работает. Вот главное меню.
not-understood = Извините, я не понял. Выберите пункт меню:

## /start, /stop
welcome-default = Добро пожаловать в наш магазин! Смотрите товары, оформляйте заказы и безопасно платите криптовалютой.
opted-in = Вы снова будете получать наши новости. Отправьте /stop, чтобы отключить их.
opted-out = Вы больше не будете получать наши новости. Отправьте /start, чтобы снова их получать.

## Команды и /help
command-start = приветствие и главное меню
command-menu = главное меню
command-help = этот список
command-language = выбрать язык, на котором я пишу
command-cancel = выйти из оформления заказа или поддержки (корзина сохранится)
command-stop = больше не получать новости магазина
command-forgetme = удалить ваши данные из этого магазина
help-title = Помощь
help-intro = Кнопки главного меню помогут посмотреть товары, корзину и заказы или написать нам.
help-commands = Команды:
left-support = Вы вышли из поддержки. Ваше сообщение уже у нашей команды, а ответы по-прежнему придут в этот чат.
nothing-to-cancel = Отменять нечего. Главное меню: что вы хотите сделать?

## Язык
language-button = 🌐 Язык
language-choose = Выберите язык:
language-only-one = Этот магазин говорит только на языке: { $language }.
language-chosen = Теперь я буду писать вам по-русски.

## О магазине, Мои данные
about-empty = Информации пока нет.
my-data-button = 🔒 Мои данные
forget-button = 🗑 Удалить мои данные
forget-confirm-button = Да, удалить мои данные
about-back-button = « О магазине
my-data-title = Мои данные
my-data-kept = Что этот магазин хранит о вас:
my-data-telegram-id = • Ваш Telegram ID, чтобы отвечать вам здесь
my-data-telegram-id-username = • Ваш Telegram ID и имя пользователя @{ $username }, чтобы отвечать вам здесь
my-data-orders = • Заказы: { $count } (суммы, товары и статус)
my-data-orders-addresses = • Заказы: { $count } (суммы, товары и статус), из них с адресом доставки: { $addresses }
my-data-messages = • Сообщения в поддержку: { $count }
my-data-note = • Заметка магазина о вас, чтобы лучше вас обслуживать
my-data-broadcasts-on = • Новости: включены (отправьте /stop, чтобы отключить)
my-data-broadcasts-off = • Новости: выключены (отправьте /start, чтобы включить)
my-data-retention = Адреса доставки удаляются через { $days ->
    [one] { $days } день
    [few] { $days } дня
    [many] { $days } дней
   *[other] { $days } дня
  } после выполнения или отмены заказа.
my-data-kept-with-orders = Адреса доставки хранятся вместе с заказами.
my-data-forget-hint = Отправьте /forgetme или нажмите ниже, чтобы сейчас удалить ваши адреса, сообщения и имя пользователя. Суммы остаются для бухгалтерии магазина.
forget-confirm = Удалить ваши данные?
forget-confirm-details = Будут удалены ваши адреса доставки (заказ, который ещё в пути, сохранит адрес до отправки), ваши сообщения в поддержку и имя пользователя. Суммы ваших заказов остаются для бухгалтерии магазина. Это нельзя отменить.
forget-done = Готово: ваши данные удалены.
forget-erased = Удалено адресов: { $addresses }, сообщений: { $messages }.
forget-kept = Адрес в заказах, которые ещё не отправлены ({ $orders }), сохранится до отправки, а затем будет удалён.

## Каталог
catalogue-other = Другие товары
catalogue-nothing = Товаров пока нет. Загляните позже.
catalogue-choose-category = Выберите категорию:
category-gone = Этой категории больше нет.
category-nothing = Здесь пока нет товаров.
category-choose-both = Выберите подкатегорию или товар:
category-choose-subcategory = Выберите подкатегорию:
category-choose-product = Выберите товар:
product-button-out-of-stock = нет в наличии
product-price = Цена: { $price }
product-price-from = Цена: от { $price }
product-bulk-pricing = Оптовые цены:
product-bulk-tier = • от { $quantity } шт.: { $price }
product-stock = В наличии: { $stock }
product-quantity = Количество: { $quantity } × { $unit } = { $total }
product-out-of-stock = Нет в наличии
product-quantity-button = Кол-во: { $quantity }
product-add-button = Добавить { $quantity } в корзину
product-cart-button = 🛒 Корзина
product-gone = Этого товара больше нет.
notify-me-button = 🔔 Сообщить о поступлении
notify-me-notice = Мы напишем вам один раз, когда товар снова появится.
added-to-cart = { $quantity } × { $name } добавлено в корзину.
added-to-cart-total = { $quantity } × { $name } добавлено в корзину. Теперь в корзине: { $inCart }.
added-the-product = товар

## Товары с вариантами
options-changed = Варианты этого товара изменились. Выберите ещё раз.
option-gone = Этого варианта больше нет. Выберите ещё раз.
option-value = { $option }: { $value }
option-not-chosen = не выбрано
options-combination-unavailable = Такого сочетания нет. Выберите другое.
options-please-choose = Выберите: { $names }.
list-and = { $first } и { $last }
variant-sold-out = { $choice }: нет в наличии
variant-none-in = Нет { $value } в { $others }
variant-unavailable = { $value } недоступно

## Корзина
cart-empty = Ваша корзина пуста.
cart-subtotal = Промежуточный итог: { $amount }
cart-empty-button = 🗑 Очистить корзину
cart-checkout-button = ✅ Оформить заказ
cart-emptied = Корзина очищена.

## Оформление заказа
checkout-name =
    Оформление: получатель

    Отправьте полное имя человека, который получит посылку.
checkout-street =
    Оформление: адрес

    Отправьте адрес: улица, дом и город.
checkout-postcode =
    Оформление: индекс

    Отправьте почтовый индекс.
checkout-contact =
    Оформление: контакт (необязательно)

    Если хотите, отправьте телефон, e-mail или имя в Telegram, по которым с вами можно связаться насчёт доставки. Или нажмите «Пропустить».
checkout-postage =
    Оформление: доставка

    Выберите способ доставки:
checkout-coin =
    Оформление: оплата

    Выберите криптовалюту для оплаты:
checkout-coupon =
    Оформление: купон

    Отправьте код купона.
checkout-cancel-button = ✖ Отменить оформление
checkout-skip-button = Пропустить
checkout-confirm-button = ✅ Подтвердить и оплатить
checkout-add-coupon-button = 🏷 Добавить купон
checkout-remove-coupon-button = Убрать купон
checkout-back-to-summary-button = ⬅ Назад к заказу
postage-option = { $name }: { $price }
postage-option-days = { $name }: { $price } ({ $days ->
    [one] { $days } день
    [few] { $days } дня
    [many] { $days } дней
   *[other] { $days } дня
  })
summary-title = Проверьте ваш заказ
summary-line = { $quantity } × { $name } (по { $unit }): { $total }
summary-subtotal = Промежуточный итог: { $amount }
summary-discount = Скидка ({ $code }): −{ $amount }
summary-postage = Доставка: { $postage }
summary-postage-none = нет
summary-total = Итого: { $amount }
summary-deliver-to = Получатель:
summary-contact = Контакт: { $contact }
summary-pay-with = Оплата: { $coin }
coupon-no-longer-applies = ⚠️ { $reason } Купон убран из заказа.
coupon-gone-at-confirm = ⚠️ { $reason } Купон убран из заказа, поэтому ничего не списано.
coupon-applied = ✅ Купон { $code } применён.
coupon-removed = Купон убран.
checkout-cancelled = Оформление отменено. Корзина сохранена.
checkout-choose-button = Выберите одну из кнопок ниже.
checkout-send-text = Отправьте ответ текстовым сообщением.
checkout-stale-button = Эта кнопка относится к другому шагу оформления.
checkout-postage-gone = Этот способ доставки больше недоступен.
checkout-coin-gone = Эта валюта больше не принимается.
checkout-already-placing = Ваш заказ уже оформляется.
checkout-placing = Оформляем заказ…
checkout-creating-payment = Готовим оплату...
order-placed = Заказ #{ $order } оформлен. Итого: { $total }
payment-heading = Оплата заказа #{ $order }
payment-footer = Мы напишем вам здесь, как только придёт оплата.
payment-details-above = Реквизиты для оплаты выше, а также всегда в разделе «Мои заказы».

## Реквизиты
payment-send-exactly = Для оплаты отправьте ровно
payment-to-address = на этот адрес:
payment-pay-by = Оплатите до { $deadline }.
payment-page = Или оплатите на странице оплаты: { $url }

## Мои заказы
orders-none = У вас пока нет заказов.
orders-recent = Мои заказы (сначала новые)
orders-payment-button = 💳 Реквизиты #{ $order }
order-heading = Заказ #{ $order } · { $date }
order-total = Итого: { $amount }
order-status = Статус: { $status }
order-item = • { $quantity } × { $name }
order-item-unlisted = Товар, которого больше нет в продаже
order-more-items = • и ещё { $count ->
    [one] { $count } товар
    [few] { $count } товара
    [many] { $count } товаров
   *[other] { $count } товара
  }
payment-heading-total = Оплата заказа #{ $order } (итого { $total })
payment-seen = Ваш платёж { $amount } { $coin } получен и подтверждается. Больше ничего отправлять не нужно; мы напишем здесь, когда он будет подтверждён.
payment-send-rest = Мы получили { $paid } из { $amount } { $coin }. Пожалуйста, отправьте остаток.
payment-part = часть

## Поддержка
support-intro = Напишите сообщение и отправьте его сюда. Наша команда ответит в этом чате.
support-text-only = Пожалуйста, отправьте сообщение в поддержку текстом.
support-sent = Спасибо, ваше сообщение передано в поддержку. Мы ответим здесь. Можете написать ещё или вернуться в меню.

## Новости
broadcast-view-product = Посмотреть товар
restock-back = Хорошие новости: { $name } снова в наличии!

## /link владельца
link-private = Готово: здесь вы будете получать уведомления владельца магазина. Какие именно, выберите в Bot Settings → Owner alerts.
link-group = Готово: эта группа будет получать уведомления владельца магазина. Какие именно, выберите в Bot Settings → Owner alerts.
link-bad-code = Этот код неверный или устарел. Получите новый в Bot Settings → Owner alerts.
link-no-code = Отправьте /link и код из Bot Settings → Owner alerts, например /link 123456.

## Оплата и отправка (сообщения вне диалога)
payment-paid = Оплата заказа #{ $order } получена. Спасибо! Мы готовим ваш заказ к отправке.
payment-expired = Заказ #{ $order } просрочен: оплата не пришла вовремя, поэтому он отменён, а товары снова в продаже. Если вы уже отправили платёж, напишите в поддержку.
payment-failed = Оплата заказа #{ $order } не прошла, поэтому заказ отменён. Если вы уже отправили платёж, напишите в поддержку.
payment-refunded = Оплата заказа #{ $order } возвращена, поэтому заказ отменён.
payment-partly-paid = Мы получили { $paid } { $coin } за заказ #{ $order }, но к оплате { $due } { $coin }.
payment-partly-paid-send-rest = Отправьте оставшиеся { $rest } { $coin } на { $address }, чтобы завершить заказ.
payment-partly-paid-contact = Напишите в поддержку, чтобы завершить заказ.
payment-part-of-payment = часть оплаты
payment-more = больше
order-cancelled-by-shop = Магазин отменил заказ #{ $order }.
order-cancelled-refund = Мы получили за него { $paid } { $coin }, они будут возвращены: напишите в поддержку адрес для возврата.
order-cancelled-no-payment = Оплата за него не списывалась. Если есть вопросы, напишите в поддержку.
payment-after-cancel = Мы получили { $paid } { $coin } за заказ #{ $order }, но заказ уже был отменён. Напишите в поддержку, и мы всё решим.
payment-a-payment = платёж
payment-too-late = Мы получили вашу оплату заказа #{ $order }, но заказ уже был просрочен, а одного из товаров больше нет в наличии. Напишите в поддержку, и мы всё решим.
checkout-abandoned = Не удалось оформить заказ #{ $order }: при создании платежа что-то пошло не так, поэтому оплата не списана.
checkout-abandoned-cart-restored = Товары снова в вашей корзине — можно оформить заказ ещё раз.
checkout-abandoned-order-again = Откройте магазин и оформите заказ ещё раз.
dispatch-title = Хорошие новости! Ваш заказ #{ $order } отправлен.
dispatch-note = Сообщение от магазина: { $note }
dispatch-thanks = Спасибо за покупку.

## Отказы и проверки магазина
refusal-quantity-zero-or-more = Количество должно быть целым числом от 0.
refusal-quantity-at-least-one = Количество должно быть целым числом от 1.
refusal-quantity-at-most = Количество может быть не больше { $max }.
refusal-product-gone = Этот товар больше недоступен.
refusal-choose-options = Сначала выберите параметры.
refusal-out-of-stock = { $name } нет в наличии.
refusal-only-left = { $name }: осталось всего { $stock } шт.
refusal-only-left-in-cart = { $name }: осталось всего { $stock } шт., и { $inCart } шт. уже в вашей корзине.
cart-removed-gone = { $name } больше недоступен, поэтому мы убрали его из корзины.
cart-removed-sold-out = { $name } закончился, поэтому мы убрали его из корзины.
cart-quantity-lowered = { $name }: осталось всего { $stock } шт., поэтому количество уменьшено до { $stock }.
refusal-payments-unavailable = Оплата сейчас недоступна, поэтому заказы нельзя оплатить. Попробуйте позже.
refusal-coin-not-accepted = { $coin } не принимается. Оплатите в { $coins }.
refusal-postage-gone = Этот способ доставки больше недоступен. Выберите другой.
refusal-cart-empty = Ваша корзина пуста.
refusal-item-gone = { $name } больше недоступен. Проверьте корзину.
refusal-order-too-large = Этот заказ слишком большой, чтобы оплатить его за один раз. Разделите его на несколько заказов поменьше.
refusal-address = Проверьте адрес доставки.
refusal-choose-coin = Выберите BTC, LTC или XMR для оплаты.
refusal-payments-not-configured = Оплата ещё не настроена, поэтому заказы сейчас нельзя оплатить. Попробуйте позже.
refusal-payment-not-created = Не удалось создать платёж. Заказ отменён, корзина сохранена — можно попробовать ещё раз.
refusal-payment-too-slow = Создание платежа заняло слишком много времени, поэтому заказ отменён, а корзина сохранена. Попробуйте ещё раз.
refusal-too-many-unpaid-orders = У вас уже { $count ->
    [one] { $count } заказ ждёт
    [few] { $count } заказа ждут
    [many] { $count } заказов ждут
   *[other] { $count } заказа ждут
  } оплаты. Оплатите один из них (см. «Мои заказы») или дождитесь, пока срок одного истечёт, прежде чем заказывать снова.
refusal-not-enough-stock = Недостаточно товара { $name }: осталось всего { $stock } шт.
refusal-not-enough-stock-gone = Недостаточно товара { $name }: он больше недоступен.
refusal-order-not-found = Заказ не найден.
refusal-order-not-awaiting-payment = Этот заказ больше не ждёт оплаты. Откройте «Мои заказы», чтобы посмотреть его статус.
coupon-refused-unknown = Купона { $code } не существует. Проверьте код и попробуйте ещё раз.
coupon-refused-not-a-code = Это не код купона: коды состоят из 3–32 букв, цифр, - или _. Проверьте его и попробуйте ещё раз.
coupon-refused-expired = Срок действия купона { $code } истёк.
coupon-refused-not-started = Купон { $code } пока нельзя использовать: он действует с { $start }.
coupon-refused-not-started-later = Купон { $code } пока нельзя использовать: он начнёт действовать позже.
coupon-refused-used-up = Купон { $code } уже израсходован.
coupon-refused-already-used = Вы уже использовали купон { $code } максимальное число раз.
coupon-refused-minimum-not-met = Купон { $code } действует на товары от { $minimum } (без доставки); у вас — { $items }.
coupon-refused-not-for-these-items = Купон { $code } не действует ни на один товар в вашей корзине.
coupon-refused-first-order-only = Купон { $code } действует только на первый заказ.
address-refused-name = Отправьте имя длиной от 2 до 100 символов, например Анна Иванова.
address-refused-street = Отправьте адрес (от 5 до 300 символов), например ул. Ленина, 12, Москва.
address-refused-postcode = Это не похоже на почтовый индекс. Отправьте его ещё раз, например 101000.
address-refused-contact = Отправьте контакт длиной от 3 до 100 символов или нажмите «Пропустить».

## Статус заказа (Мои заказы)
order-status-underpaid-due = Недоплата: осталось оплатить { $due } { $coin }
order-status-underpaid = Недоплата: отправьте оставшуюся сумму
order-status-confirming = Оплата получена, подтверждается
order-status-awaiting-payment = Ожидает оплаты
order-status-processing = Оплачен, готовится к отправке
order-status-dispatched = Отправлен
order-status-completed = Выполнен
order-status-refunded = Возвращён
order-status-cancelled-refund-due = Отменён магазином: оплата будет возвращена
order-status-cancelled-by-shop = Отменён магазином
order-status-paid-too-late = Отменён: оплата пришла слишком поздно, напишите в поддержку
order-status-expired = Истёк: оплата не поступила
order-status-payment-not-created = Отменён: не удалось создать платёж
order-status-payment-failed = Отменён: платёж не прошёл
order-status-no-payment = Отменён: оплата не поступила
order-status-other = { $status }

## Где посылка
parcel-carrier = Служба доставки: { $carrier }
parcel-tracking-number = Трек-номер: { $number }
parcel-track-link = Отследить посылку: { $link }
