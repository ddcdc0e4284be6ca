# The bot's English texts: the shop's product strings, checked word for word by the bot's tests.
# Every other file here has the same keys and uses the same variables (locales.test.ts).

## Main menu and shared buttons
menu-browse = Browse Products
menu-cart = My Cart
menu-orders = My Orders
menu-support = Contact Support
menu-about = About
menu-open-shop = 🛍 Open shop
main-menu-text = Main menu: what would you like to do?
main-menu-button = « Main menu
back-button = « Back
cancel-button = Cancel
pager-previous = ‹ Previous
pager-page = Page { $page } of { $pages }
pager-next = Next ›
warning = ⚠️ { $text }
error-generic = Sorry, something went wrong. Please try again.
blocked = Sorry, this shop is not available to you.
too-many-requests = Too many requests. Please wait a minute and try again.
button-invalid = That button is no longer valid. Here is the main menu.
not-understood = Sorry, I didn't understand that. Please choose an option from the menu:

## /start, /stop
welcome-default = Welcome to our shop! Browse our products, place orders and pay securely with cryptocurrency.
opted-in = You will receive our announcements again. Send /stop to turn them off.
opted-out = You will no longer receive our announcements. Send /start to receive them again.

## Commands and /help
command-start = the welcome message and the main menu
command-menu = the main menu
command-help = this list
command-language = choose the language I speak
command-cancel = leave the checkout or Contact Support (your cart is kept)
command-stop = no more announcements from the shop
command-forgetme = erase your data from this shop
help-title = Help
help-intro = Use the buttons of the main menu to browse products, see your cart and orders, or contact us.
help-commands = Commands:
left-support = You have left Contact Support. What you sent is with our team, and replies still arrive in this chat.
nothing-to-cancel = There is nothing to cancel. Main menu: what would you like to do?

## Language
language-button = 🌐 Language
language-choose = Choose your language:
language-only-one = This shop speaks { $language } only.
language-chosen = From now on I will write to you in English.

## About, My data
about-empty = No information has been added yet.
my-data-button = 🔒 My data
forget-button = 🗑 Erase my data
forget-confirm-button = Yes, erase my data
about-back-button = « About
my-data-title = My data
my-data-kept = What this shop keeps about you:
my-data-telegram-id = • Your Telegram id, to answer you here
my-data-telegram-id-username = • Your Telegram id and username @{ $username }, to answer you here
my-data-orders = • { $count ->
    [one] { $count } order
   *[other] { $count } orders
  }: amounts, items and status
my-data-orders-addresses = • { $count ->
    [one] { $count } order
   *[other] { $count } orders
  }: amounts, items and status, { $addresses ->
    [one] { $addresses } with a delivery address
   *[other] { $addresses } with delivery addresses
  }
my-data-messages = • { $count ->
    [one] { $count } support message
   *[other] { $count } support messages
  }
my-data-note = • A note the shop keeps about you, to serve you
my-data-broadcasts-on = • Announcements: on (send /stop to turn them off)
my-data-broadcasts-off = • Announcements: off (send /start to turn them on)
my-data-retention = Delivery addresses are erased { $days ->
    [one] { $days } day
   *[other] { $days } days
  } after an order is completed or cancelled.
my-data-kept-with-orders = Delivery addresses are kept with their orders.
my-data-forget-hint = Send /forgetme, or tap below, to erase your addresses, messages and username now. Amounts stay for the shop's accounts.
forget-confirm = Erase your data?
forget-confirm-details = This erases your delivery addresses (an order still on its way keeps its address until it is dispatched), your support messages and your username from this shop. Your orders' amounts stay for the shop's accounts. This cannot be undone.
forget-done = Done: your data is erased.
forget-erased = { $addresses ->
    [one] { $addresses } address
   *[other] { $addresses } addresses
  } and { $messages ->
    [one] { $messages } message
   *[other] { $messages } messages
  } erased.
forget-kept = The address on { $orders ->
    [one] { $orders } order
   *[other] { $orders } orders
  } still to be sent is kept until it is dispatched, then erased.

## Browse Products
catalogue-other = Other products
catalogue-nothing = There are no products to show yet. Please check back soon.
catalogue-choose-category = Choose a category:
category-gone = That category is no longer available.
category-nothing = There are no products here yet.
category-choose-both = Choose a subcategory or a product:
category-choose-subcategory = Choose a subcategory:
category-choose-product = Choose a product:
product-button-out-of-stock = out of stock
product-price = Price: { $price }
product-price-from = Price: from { $price }
product-bulk-pricing = Bulk pricing:
product-bulk-tier = • { $quantity }+ for { $price }
product-stock = Stock: { $stock } available
product-quantity = Quantity: { $quantity } × { $unit } = { $total }
product-out-of-stock = Out of stock
product-quantity-button = Qty: { $quantity }
product-add-button = Add { $quantity } to cart
product-cart-button = 🛒 My Cart
product-gone = That product is no longer available.
notify-me-button = 🔔 Notify me when back
notify-me-notice = We will message you once when it is back in stock.
added-to-cart = Added { $quantity } × { $name } to your cart.
added-to-cart-total = Added { $quantity } × { $name } to your cart. You now have { $inCart } in your cart.
added-the-product = the product

## Products with options
options-changed = The options of this product have changed. Please choose again.
option-gone = That option is no longer available. Please choose again.
option-value = { $option }: { $value }
option-not-chosen = not chosen yet
options-combination-unavailable = That combination is not available. Please choose another.
options-please-choose = Please choose { $names }.
list-and = { $first } and { $last }
variant-sold-out = { $choice } is sold out
variant-none-in = No { $value } in { $others }
variant-unavailable = { $value } is not available

## My Cart
cart-empty = Your cart is empty.
cart-subtotal = Subtotal: { $amount }
cart-empty-button = 🗑 Empty cart
cart-checkout-button = ✅ Checkout
cart-emptied = Your cart is now empty.

## Checkout
checkout-name =
    Checkout: delivery name

    Please send the full name of the person receiving the parcel.
checkout-street =
    Checkout: street address

    Please send the street address: house number, street and town.
checkout-postcode =
    Checkout: postcode

    Please send the postcode.
checkout-contact =
    Checkout: contact (optional)

    If you like, send a phone number, email or Telegram username we can reach you on about the delivery. Or press Skip.
checkout-postage =
    Checkout: postage

    Please choose how your order is sent:
checkout-coin =
    Checkout: payment

    Please choose the cryptocurrency you will pay with:
checkout-coupon =
    Checkout: coupon

    Please send your coupon code.
checkout-cancel-button = ✖ Cancel checkout
checkout-skip-button = Skip
checkout-confirm-button = ✅ Confirm and pay
checkout-add-coupon-button = 🏷 Add a coupon
checkout-remove-coupon-button = Remove coupon
checkout-back-to-summary-button = ⬅ Back to the summary
postage-option = { $name }: { $price }
postage-option-days = { $name }: { $price } ({ $days ->
    [one] { $days } day
   *[other] { $days } days
  })
summary-title = Please check your order
summary-line = { $quantity } × { $name } ({ $unit } each): { $total }
summary-subtotal = Subtotal: { $amount }
summary-discount = Discount ({ $code }): −{ $amount }
summary-postage = Postage: { $postage }
summary-postage-none = none
summary-total = Total: { $amount }
summary-deliver-to = Deliver to:
summary-contact = Contact: { $contact }
summary-pay-with = Pay with: { $coin }
coupon-no-longer-applies = ⚠️ { $reason } It was removed from your order.
coupon-gone-at-confirm = ⚠️ { $reason } It was removed from your order, so nothing was charged.
coupon-applied = ✅ Coupon { $code } applied.
coupon-removed = Coupon removed.
checkout-cancelled = Checkout cancelled. Your cart is kept for later.
checkout-choose-button = Please choose one of the buttons below.
checkout-send-text = Please send your answer as a text message.
checkout-stale-button = That button belongs to another step of the checkout.
checkout-postage-gone = That postage option is no longer available.
checkout-coin-gone = That coin is no longer accepted.
checkout-already-placing = Your order is already being placed.
checkout-placing = Placing your order…
checkout-creating-payment = Creating your payment...
order-placed = Order #{ $order } is placed. Total: { $total }
payment-heading = Payment for order #{ $order }
payment-footer = We'll message you here as soon as your payment arrives.
payment-details-above = Your payment details are above, and under My Orders at any time.

## Payment details
payment-send-exactly = To pay, send exactly
payment-to-address = to this address:
payment-pay-by = Please pay by { $deadline }.
payment-page = Or pay on the payment page: { $url }

## My Orders
orders-none = You have no orders yet.
orders-recent = My Orders (most recent first)
orders-payment-button = 💳 Payment details #{ $order }
order-heading = Order #{ $order } · { $date }
order-total = Total: { $amount }
order-status = Status: { $status }
order-item = • { $quantity } × { $name }
order-item-unlisted = A product no longer listed
order-more-items = • and { $count } more { $count ->
    [one] item
   *[other] items
  }
payment-heading-total = Payment for order #{ $order } (total { $total })
payment-seen = Your payment of { $amount } { $coin } was seen and is being confirmed. There is nothing more to send; we'll message you here once it is confirmed.
payment-send-rest = We received { $paid } of { $amount } { $coin }. Please send the rest.
payment-part = part

## Contact Support
support-intro = Type your message and send it here. Our team will reply in this chat.
support-text-only = Please send your message to support as text.
support-sent = Thank you, your message has been sent to our support team. We'll reply here. You can send more messages, or go back to the menu.

## Broadcasts
broadcast-view-product = View product
restock-back = Good news: { $name } is back in stock!

## The owner's /link
link-private = Linked: you will get the shop's owner alerts here. Choose which ones in Bot Settings → Owner alerts.
link-group = Linked: this group will get the shop's owner alerts. Choose which ones in Bot Settings → Owner alerts.
link-bad-code = That code is not valid or has expired. Show a new one in Bot Settings → Owner alerts.
link-no-code = Send /link followed by the code shown in Bot Settings → Owner alerts, e.g. /link 123456.

## Payment updates and dispatch notices (sent outside a conversation)
payment-paid = Payment received for order #{ $order }. Thank you! Your order is now being prepared for dispatch.
payment-expired = Order #{ $order } expired: no payment arrived in time, so it was cancelled and its items released. If you already sent a payment, please contact support.
payment-failed = The payment for order #{ $order } failed, so the order was cancelled. If you already sent a payment, please contact support.
payment-refunded = The payment for order #{ $order } was refunded, so the order was cancelled.
payment-partly-paid = We received { $paid } { $coin } for order #{ $order }, but { $due } { $coin } is due.
payment-partly-paid-send-rest = Please send the remaining { $rest } { $coin } to { $address } to complete your order.
payment-partly-paid-contact = Please contact support to complete your order.
payment-part-of-payment = part of the payment
payment-more = more
order-cancelled-by-shop = Order #{ $order } was cancelled by the shop.
order-cancelled-refund = We received { $paid } { $coin } for it, which will be refunded: please contact support with an address to refund it to.
order-cancelled-no-payment = No payment was taken for it. If you have any questions, please contact support.
payment-after-cancel = We received { $paid } { $coin } for order #{ $order }, but the order had already been cancelled. Please contact support and we will sort it out.
payment-a-payment = a payment
payment-too-late = We received your payment for order #{ $order }, but the order had already expired and an item in it is no longer in stock. Please contact support and we will sort it out.
checkout-abandoned = Order #{ $order } could not be completed: something went wrong while its payment was being created, so no payment was taken.
checkout-abandoned-cart-restored = Your items are back in your cart, so you can check out again.
checkout-abandoned-order-again = Please open the shop and place your order again.
dispatch-title = Good news! Your order #{ $order } has been dispatched.
dispatch-note = Note from the shop: { $note }
dispatch-thanks = Thank you for shopping with us.

## The shop's refusals and checks (server/shop: the same sentences the dashboard and the API give in English)
refusal-quantity-zero-or-more = The quantity must be a whole number of 0 or more.
refusal-quantity-at-least-one = The quantity must be a whole number of at least 1.
refusal-quantity-at-most = The quantity can be at most { $max }.
refusal-product-gone = That product is no longer available.
refusal-choose-options = Please choose the options first.
refusal-out-of-stock = { $name } is out of stock.
refusal-only-left = Only { $stock } left of { $name }.
refusal-only-left-in-cart = Only { $stock } left of { $name }, and { $inCart } { $inCart ->
    [one] is
   *[other] are
  } already in your cart.
cart-removed-gone = { $name } is no longer available, so it was removed from your cart.
cart-removed-sold-out = { $name } is out of stock, so it was removed from your cart.
cart-quantity-lowered = Only { $stock } left of { $name }, so your quantity was lowered to { $stock }.
refusal-payments-unavailable = Payments are not available right now, so orders cannot be paid. Please try again later.
refusal-coin-not-accepted = { $coin } is not accepted. Please pay with { $coins }.
refusal-postage-gone = That postage option is no longer available. Please choose another.
refusal-cart-empty = Your cart is empty.
refusal-item-gone = { $name } is no longer available. Please check your cart.
refusal-order-too-large = This order is too large to pay in one go. Please split it into smaller orders.
refusal-address = Please check the shipping address.
refusal-choose-coin = Please choose BTC, LTC or XMR to pay with.
refusal-payments-not-configured = Payments are not configured yet, so orders cannot be paid right now. Please try again later.
refusal-payment-not-created = The payment could not be created. Your order was cancelled and your cart kept, so you can try again.
refusal-payment-too-slow = Creating your payment took too long, so your order was cancelled and your cart kept. Please try again.
refusal-too-many-unpaid-orders = You already have { $count } orders waiting for payment. Pay one of them (see My Orders) or wait for one to expire before ordering again.
refusal-not-enough-stock = Not enough stock for { $name }: only { $stock } left.
refusal-not-enough-stock-gone = Not enough stock for { $name }: no longer available.
refusal-order-not-found = That order was not found.
refusal-order-not-awaiting-payment = That order is not waiting for a payment any more. Open My Orders to see where it is.
coupon-refused-unknown = There is no coupon { $code }. Please check the code and try again.
coupon-refused-not-a-code = That is not a coupon code: codes are 3 to 32 letters, digits, - or _. Please check it and try again.
coupon-refused-expired = Coupon { $code } has expired.
coupon-refused-not-started = Coupon { $code } cannot be used yet: it starts on { $start }.
coupon-refused-not-started-later = Coupon { $code } cannot be used yet: it starts on a later date.
coupon-refused-used-up = Coupon { $code } has been used up.
coupon-refused-already-used = You have already used coupon { $code } as many times as it allows.
coupon-refused-minimum-not-met = Coupon { $code } needs items worth at least { $minimum } (postage not included); yours come to { $items }.
coupon-refused-not-for-these-items = Coupon { $code } does not apply to any item in your cart.
coupon-refused-first-order-only = Coupon { $code } is for a first order only.
address-refused-name = Please send a name of 2 to 100 characters, for example Jane Smith.
address-refused-street = Please send the street address (5 to 300 characters), for example 12 High Street, London.
address-refused-postcode = That doesn't look like a postcode. Please send it again, for example SW1A 1AA.
address-refused-contact = Please send a contact of 3 to 100 characters, or press Skip.

## Order status words (My Orders)
order-status-underpaid-due = Underpaid: { $due } { $coin } still due
order-status-underpaid = Underpaid: please send the rest
order-status-confirming = Payment received, confirming
order-status-awaiting-payment = Awaiting payment
order-status-processing = Paid, being prepared for dispatch
order-status-dispatched = Dispatched
order-status-completed = Completed
order-status-refunded = Refunded
order-status-cancelled-refund-due = Cancelled by the shop: your payment will be refunded
order-status-cancelled-by-shop = Cancelled by the shop
order-status-paid-too-late = Cancelled: your payment arrived too late, please contact support
order-status-expired = Expired: no payment arrived
order-status-payment-not-created = Cancelled: the payment could not be created
order-status-payment-failed = Cancelled: the payment failed
order-status-no-payment = Cancelled: no payment arrived
order-status-other = { $status }

## Where a parcel is (My Orders, the dispatch message)
parcel-carrier = Carrier: { $carrier }
parcel-tracking-number = Tracking number: { $number }
parcel-track-link = Track your parcel: { $link }
