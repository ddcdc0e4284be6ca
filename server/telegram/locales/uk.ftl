# Тексти бота українською. Ті самі ключі та змінні, що й в en.ftl (locales.test.ts).

## Головне меню та спільні кнопки
menu-browse = Каталог
menu-cart = Кошик
menu-orders = Мої замовлення
menu-support = Підтримка
menu-about = Про магазин
menu-open-shop = 🛍 Відкрити магазин
main-menu-text = Головне меню: що ви хочете зробити?
main-menu-button = « Головне меню
back-button = « Назад
cancel-button = Скасувати
pager-previous = ‹ Назад
pager-page = Сторінка { $page } з { $pages }
pager-next = Далі ›
warning = ⚠️ { $text }
error-generic = Вибачте, щось пішло не так. Спробуйте ще раз.
blocked = Вибачте, цей магазин для вас недоступний.
too-many-requests = Забагато запитів. Зачекайте хвилину й спробуйте ще раз.
button-invalid = Ця кнопка більше не діє. Ось головне меню.
not-understood = Вибачте, я не зрозумів. Оберіть пункт меню:

## /start, /stop
welcome-default = Ласкаво просимо до нашого магазину! Переглядайте товари, оформлюйте замовлення й безпечно платіть криптовалютою.
opted-in = Ви знову отримуватимете наші новини. Надішліть /stop, щоб вимкнути їх.
opted-out = Ви більше не отримуватимете наші новини. Надішліть /start, щоб знову їх отримувати.

## Команди та /help
command-start = привітання та головне меню
command-menu = головне меню
command-help = цей список
command-language = обрати мову, якою я пишу
command-cancel = вийти з оформлення замовлення чи підтримки (кошик збережеться)
command-stop = більше не отримувати новини магазину
command-forgetme = видалити ваші дані з цього магазину
help-title = Допомога
help-intro = Кнопки головного меню допоможуть переглянути товари, кошик і замовлення або написати нам.
help-commands = Команди:
left-support = Ви вийшли з підтримки. Ваше повідомлення вже в нашої команди, а відповіді й далі надходитимуть у цей чат.
nothing-to-cancel = Немає чого скасовувати. Головне меню: що ви хочете зробити?

## Мова
language-button = 🌐 Мова
language-choose = Оберіть мову:
language-only-one = Цей магазин розмовляє лише мовою: { $language }.
language-chosen = Відтепер я писатиму вам українською.

## Про магазин, Мої дані
about-empty = Інформації поки немає.
my-data-button = 🔒 Мої дані
forget-button = 🗑 Видалити мої дані
forget-confirm-button = Так, видалити мої дані
about-back-button = « Про магазин
my-data-title = Мої дані
my-data-kept = Що цей магазин зберігає про вас:
my-data-telegram-id = • Ваш Telegram ID, щоб відповідати вам тут
my-data-telegram-id-username = • Ваш Telegram ID та ім'я користувача @{ $username }, щоб відповідати вам тут
my-data-orders = • Замовлення: { $count } (суми, товари та статус)
my-data-orders-addresses = • Замовлення: { $count } (суми, товари та статус), з них з адресою доставки: { $addresses }
my-data-messages = • Повідомлення до підтримки: { $count }
my-data-note = • Нотатка магазину про вас, щоб краще вас обслуговувати
my-data-broadcasts-on = • Новини: увімкнено (надішліть /stop, щоб вимкнути)
my-data-broadcasts-off = • Новини: вимкнено (надішліть /start, щоб увімкнути)
my-data-retention = Адреси доставки видаляються через { $days ->
    [one] { $days } день
    [few] { $days } дні
    [many] { $days } днів
   *[other] { $days } дня
  } після виконання або скасування замовлення.
my-data-kept-with-orders = Адреси доставки зберігаються разом із замовленнями.
my-data-forget-hint = Надішліть /forgetme або натисніть нижче, щоб зараз видалити ваші адреси, повідомлення та ім'я користувача. Суми залишаються для бухгалтерії магазину.
forget-confirm = Видалити ваші дані?
forget-confirm-details = Буде видалено ваші адреси доставки (замовлення, яке ще в дорозі, збереже адресу до відправлення), ваші повідомлення до підтримки та ім'я користувача. Суми ваших замовлень залишаються для бухгалтерії магазину. Це не можна скасувати.
forget-done = Готово: ваші дані видалено.
forget-erased = Видалено адрес: { $addresses }, повідомлень: { $messages }.
forget-kept = Адреса в замовленнях, які ще не відправлено ({ $orders }), збережеться до відправлення, а потім буде видалена.

## Каталог
catalogue-other = Інші товари
catalogue-nothing = Товарів поки немає. Завітайте пізніше.
catalogue-choose-category = Оберіть категорію:
category-gone = Цієї категорії більше немає.
category-nothing = Тут поки немає товарів.
category-choose-both = Оберіть підкатегорію або товар:
category-choose-subcategory = Оберіть підкатегорію:
category-choose-product = Оберіть товар:
product-button-out-of-stock = немає в наявності
product-price = Ціна: { $price }
product-price-from = Ціна: від { $price }
product-bulk-pricing = Гуртові ціни:
product-bulk-tier = • від { $quantity } шт.: { $price }
product-stock = В наявності: { $stock }
product-quantity = Кількість: { $quantity } × { $unit } = { $total }
product-out-of-stock = Немає в наявності
product-quantity-button = К-сть: { $quantity }
product-add-button = Додати { $quantity } до кошика
product-cart-button = 🛒 Кошик
product-gone = Цього товару більше немає.
notify-me-button = 🔔 Повідомити про надходження
notify-me-notice = Ми напишемо вам один раз, коли товар знову з'явиться.
added-to-cart = { $quantity } × { $name } додано до кошика.
added-to-cart-total = { $quantity } × { $name } додано до кошика. Тепер у кошику: { $inCart }.
added-the-product = товар

## Товари з варіантами
options-changed = Варіанти цього товару змінилися. Оберіть ще раз.
option-gone = Цього варіанта більше немає. Оберіть ще раз.
option-value = { $option }: { $value }
option-not-chosen = не обрано
options-combination-unavailable = Такого поєднання немає. Оберіть інше.
options-please-choose = Оберіть: { $names }.
list-and = { $first } і { $last }
variant-sold-out = { $choice }: немає в наявності
variant-none-in = Немає { $value } у { $others }
variant-unavailable = { $value } недоступно

## Кошик
cart-empty = Ваш кошик порожній.
cart-subtotal = Проміжний підсумок: { $amount }
cart-empty-button = 🗑 Очистити кошик
cart-checkout-button = ✅ Оформити замовлення
cart-emptied = Кошик очищено.

## Оформлення замовлення
checkout-name =
    Оформлення: отримувач

    Надішліть повне ім'я людини, яка отримає посилку.
checkout-street =
    Оформлення: адреса

    Надішліть адресу: вулиця, будинок і місто.
checkout-postcode =
    Оформлення: індекс

    Надішліть поштовий індекс.
checkout-contact =
    Оформлення: контакт (необов'язково)

    Якщо хочете, надішліть телефон, e-mail або ім'я в Telegram, за якими з вами можна зв'язатися щодо доставки. Або натисніть «Пропустити».
checkout-postage =
    Оформлення: доставка

    Оберіть спосіб доставки:
checkout-coin =
    Оформлення: оплата

    Оберіть криптовалюту для оплати:
checkout-coupon =
    Оформлення: купон

    Надішліть код купона.
checkout-cancel-button = ✖ Скасувати оформлення
checkout-skip-button = Пропустити
checkout-confirm-button = ✅ Підтвердити й оплатити
checkout-add-coupon-button = 🏷 Додати купон
checkout-remove-coupon-button = Прибрати купон
checkout-back-to-summary-button = ⬅ Назад до замовлення
postage-option = { $name }: { $price }
postage-option-days = { $name }: { $price } ({ $days ->
    [one] { $days } день
    [few] { $days } дні
    [many] { $days } днів
   *[other] { $days } дня
  })
summary-title = Перевірте ваше замовлення
summary-line = { $quantity } × { $name } (по { $unit }): { $total }
summary-subtotal = Проміжний підсумок: { $amount }
summary-discount = Знижка ({ $code }): −{ $amount }
summary-postage = Доставка: { $postage }
summary-postage-none = немає
summary-total = Разом: { $amount }
summary-deliver-to = Отримувач:
summary-contact = Контакт: { $contact }
summary-pay-with = Оплата: { $coin }
coupon-no-longer-applies = ⚠️ { $reason } Купон прибрано із замовлення.
coupon-gone-at-confirm = ⚠️ { $reason } Купон прибрано із замовлення, тож нічого не списано.
coupon-applied = ✅ Купон { $code } застосовано.
coupon-removed = Купон прибрано.
checkout-cancelled = Оформлення скасовано. Кошик збережено.
checkout-choose-button = Оберіть одну з кнопок нижче.
checkout-send-text = Надішліть відповідь текстовим повідомленням.
checkout-stale-button = Ця кнопка належить до іншого кроку оформлення.
checkout-postage-gone = Цей спосіб доставки більше недоступний.
checkout-coin-gone = Ця валюта більше не приймається.
checkout-already-placing = Ваше замовлення вже оформлюється.
checkout-placing = Оформлюємо замовлення…
checkout-creating-payment = Готуємо оплату...
order-placed = Замовлення #{ $order } оформлено. Разом: { $total }
payment-heading = Оплата замовлення #{ $order }
payment-footer = Ми напишемо вам тут, щойно надійде оплата.
payment-details-above = Реквізити для оплати вище, а також завжди в розділі «Мої замовлення».

## Реквізити
payment-send-exactly = Для оплати надішліть рівно
payment-to-address = на цю адресу:
payment-pay-by = Оплатіть до { $deadline }.
payment-page = Або оплатіть на сторінці оплати: { $url }

## Мої замовлення
orders-none = У вас поки немає замовлень.
orders-recent = Мої замовлення (спочатку нові)
orders-payment-button = 💳 Реквізити #{ $order }
order-heading = Замовлення #{ $order } · { $date }
order-total = Разом: { $amount }
order-status = Статус: { $status }
order-item = • { $quantity } × { $name }
order-item-unlisted = Товар, якого більше немає в продажу
order-more-items = • і ще { $count ->
    [one] { $count } товар
    [few] { $count } товари
    [many] { $count } товарів
   *[other] { $count } товару
  }
payment-heading-total = Оплата замовлення #{ $order } (разом { $total })
payment-seen = Ваш платіж { $amount } { $coin } отримано, він підтверджується. Більше нічого надсилати не потрібно; ми напишемо тут, коли його буде підтверджено.
payment-send-rest = Ми отримали { $paid } з { $amount } { $coin }. Будь ласка, надішліть решту.
payment-part = частину

## Підтримка
support-intro = Напишіть повідомлення й надішліть його сюди. Наша команда відповість у цьому чаті.
support-text-only = Будь ласка, надішліть повідомлення до підтримки текстом.
support-sent = Дякуємо, ваше повідомлення передано до підтримки. Ми відповімо тут. Можете написати ще або повернутися до меню.

## Новини
broadcast-view-product = Переглянути товар
restock-back = Гарні новини: { $name } знову в наявності!

## /link власника
link-private = Готово: тут ви отримуватимете сповіщення власника магазину. Які саме, оберіть у Bot Settings → Owner alerts.
link-group = Готово: ця група отримуватиме сповіщення власника магазину. Які саме, оберіть у Bot Settings → Owner alerts.
link-bad-code = Цей код недійсний або застарів. Отримайте новий у Bot Settings → Owner alerts.
link-no-code = Надішліть /link і код із Bot Settings → Owner alerts, наприклад /link 123456.

## Оплата та відправлення (повідомлення поза діалогом)
payment-paid = Оплату замовлення #{ $order } отримано. Дякуємо! Ми готуємо ваше замовлення до відправлення.
payment-expired = Замовлення #{ $order } прострочено: оплата не надійшла вчасно, тому його скасовано, а товари знову в продажу. Якщо ви вже надіслали платіж, напишіть до підтримки.
payment-failed = Оплата замовлення #{ $order } не пройшла, тому замовлення скасовано. Якщо ви вже надіслали платіж, напишіть до підтримки.
payment-refunded = Оплату замовлення #{ $order } повернуто, тому замовлення скасовано.
payment-partly-paid = Ми отримали { $paid } { $coin } за замовлення #{ $order }, але до сплати { $due } { $coin }.
payment-partly-paid-send-rest = Надішліть решту { $rest } { $coin } на { $address }, щоб завершити замовлення.
payment-partly-paid-contact = Напишіть до підтримки, щоб завершити замовлення.
payment-part-of-payment = частину оплати
payment-more = більше
order-cancelled-by-shop = Магазин скасував замовлення #{ $order }.
order-cancelled-refund = Ми отримали за нього { $paid } { $coin }, їх буде повернуто: напишіть до підтримки адресу для повернення.
order-cancelled-no-payment = Оплату за нього не списано. Якщо маєте запитання, напишіть до підтримки.
payment-after-cancel = Ми отримали { $paid } { $coin } за замовлення #{ $order }, але замовлення вже було скасовано. Напишіть до підтримки, і ми все владнаємо.
payment-a-payment = платіж
payment-too-late = Ми отримали вашу оплату замовлення #{ $order }, але замовлення вже було прострочено, а одного з товарів більше немає в наявності. Напишіть до підтримки, і ми все владнаємо.
checkout-abandoned = Не вдалося оформити замовлення #{ $order }: під час створення платежу щось пішло не так, тому оплату не списано.
checkout-abandoned-cart-restored = Товари знову у вашому кошику — можна оформити замовлення ще раз.
checkout-abandoned-order-again = Відкрийте магазин і оформіть замовлення ще раз.
dispatch-title = Гарні новини! Ваше замовлення #{ $order } відправлено.
dispatch-note = Повідомлення від магазину: { $note }
dispatch-thanks = Дякуємо за покупку.

## Відмови та перевірки магазину
refusal-quantity-zero-or-more = Кількість має бути цілим числом від 0.
refusal-quantity-at-least-one = Кількість має бути цілим числом від 1.
refusal-quantity-at-most = Кількість може бути не більше { $max }.
refusal-product-gone = Цей товар більше недоступний.
refusal-choose-options = Спершу оберіть параметри.
refusal-out-of-stock = { $name } немає в наявності.
refusal-only-left = { $name }: залишилося лише { $stock } шт.
refusal-only-left-in-cart = { $name }: залишилося лише { $stock } шт., і { $inCart } шт. уже у вашому кошику.
cart-removed-gone = { $name } більше недоступний, тому ми прибрали його з кошика.
cart-removed-sold-out = { $name } закінчився, тому ми прибрали його з кошика.
cart-quantity-lowered = { $name }: залишилося лише { $stock } шт., тому кількість зменшено до { $stock }.
refusal-payments-unavailable = Оплата зараз недоступна, тому замовлення не можна оплатити. Спробуйте пізніше.
refusal-coin-not-accepted = { $coin } не приймається. Оплатіть у { $coins }.
refusal-postage-gone = Цей спосіб доставки більше недоступний. Оберіть інший.
refusal-cart-empty = Ваш кошик порожній.
refusal-item-gone = { $name } більше недоступний. Перевірте кошик.
refusal-order-too-large = Це замовлення завелике, щоб оплатити його за один раз. Розділіть його на кілька менших замовлень.
refusal-address = Перевірте адресу доставки.
refusal-choose-coin = Оберіть BTC, LTC або XMR для оплати.
refusal-payments-not-configured = Оплату ще не налаштовано, тому замовлення зараз не можна оплатити. Спробуйте пізніше.
refusal-payment-not-created = Не вдалося створити платіж. Замовлення скасовано, кошик збережено — можна спробувати ще раз.
refusal-payment-too-slow = Створення платежу тривало надто довго, тому замовлення скасовано, а кошик збережено. Спробуйте ще раз.
refusal-too-many-unpaid-orders = У вас уже { $count ->
    [one] { $count } замовлення чекає
    [few] { $count } замовлення чекають
    [many] { $count } замовлень чекають
   *[other] { $count } замовлення чекають
  } на оплату. Оплатіть одне з них (див. «Мої замовлення») або дочекайтеся, поки термін одного з них мине, перш ніж замовляти знову.
refusal-not-enough-stock = Недостатньо товару { $name }: залишилося лише { $stock } шт.
refusal-not-enough-stock-gone = Недостатньо товару { $name }: він більше недоступний.
refusal-order-not-found = Замовлення не знайдено.
refusal-order-not-awaiting-payment = Це замовлення більше не чекає на оплату. Відкрийте «Мої замовлення», щоб побачити його статус.
coupon-refused-unknown = Купона { $code } не існує. Перевірте код і спробуйте ще раз.
coupon-refused-not-a-code = Це не код купона: коди складаються з 3–32 літер, цифр, - або _. Перевірте його і спробуйте ще раз.
coupon-refused-expired = Термін дії купона { $code } минув.
coupon-refused-not-started = Купон { $code } поки не можна використати: він діє з { $start }.
coupon-refused-not-started-later = Купон { $code } поки не можна використати: він почне діяти пізніше.
coupon-refused-used-up = Купон { $code } уже вичерпано.
coupon-refused-already-used = Ви вже використали купон { $code } максимальну кількість разів.
coupon-refused-minimum-not-met = Купон { $code } діє на товари від { $minimum } (без доставки); у вас — { $items }.
coupon-refused-not-for-these-items = Купон { $code } не діє на жоден товар у вашому кошику.
coupon-refused-first-order-only = Купон { $code } діє лише на перше замовлення.
address-refused-name = Надішліть ім’я довжиною від 2 до 100 символів, наприклад Олена Коваленко.
address-refused-street = Надішліть адресу (від 5 до 300 символів), наприклад вул. Хрещатик, 12, Київ.
address-refused-postcode = Це не схоже на поштовий індекс. Надішліть його ще раз, наприклад 01001.
address-refused-contact = Надішліть контакт довжиною від 3 до 100 символів або натисніть «Пропустити».

## Статус замовлення (Мої замовлення)
order-status-underpaid-due = Недоплата: залишилося сплатити { $due } { $coin }
order-status-underpaid = Недоплата: надішліть решту
order-status-confirming = Оплату отримано, підтверджується
order-status-awaiting-payment = Очікує на оплату
order-status-processing = Оплачено, готується до відправлення
order-status-dispatched = Відправлено
order-status-completed = Виконано
order-status-refunded = Повернено кошти
order-status-cancelled-refund-due = Скасовано магазином: оплату буде повернено
order-status-cancelled-by-shop = Скасовано магазином
order-status-paid-too-late = Скасовано: оплата надійшла запізно, напишіть у підтримку
order-status-expired = Термін минув: оплата не надійшла
order-status-payment-not-created = Скасовано: не вдалося створити платіж
order-status-payment-failed = Скасовано: платіж не пройшов
order-status-no-payment = Скасовано: оплата не надійшла
order-status-other = { $status }

## Де посилка
parcel-carrier = Служба доставки: { $carrier }
parcel-tracking-number = Трек-номер: { $number }
parcel-track-link = Відстежити посилку: { $link }
