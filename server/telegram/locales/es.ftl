# Los textos del bot en español. Mismas claves y variables que en.ftl (locales.test.ts).

## Menú principal y botones comunes
menu-browse = Ver productos
menu-cart = Mi carrito
menu-orders = Mis pedidos
menu-support = Atención al cliente
menu-about = Información
menu-open-shop = 🛍 Abrir la tienda
main-menu-text = Menú principal: ¿qué quieres hacer?
main-menu-button = « Menú principal
back-button = « Atrás
cancel-button = Cancelar
pager-previous = ‹ Anterior
pager-page = Página { $page } de { $pages }
pager-next = Siguiente ›
warning = ⚠️ { $text }
error-generic = Lo sentimos, algo ha fallado. Inténtalo de nuevo.
blocked = Lo sentimos, esta tienda no está disponible para ti.
too-many-requests = Demasiadas solicitudes. Espera un minuto y vuelve a intentarlo.
button-invalid = Ese botón ya no es válido. Aquí tienes el menú principal.
not-understood = Lo siento, no te he entendido. Elige una opción del menú:

## /start, /stop
welcome-default = ¡Bienvenido a nuestra tienda! Mira nuestros productos, haz tus pedidos y paga de forma segura con criptomonedas.
opted-in = Volverás a recibir nuestras novedades. Envía /stop para dejar de recibirlas.
opted-out = Ya no recibirás nuestras novedades. Envía /start para volver a recibirlas.

## Comandos y /help
command-start = el mensaje de bienvenida y el menú principal
command-menu = el menú principal
command-help = esta lista
command-language = elegir el idioma en que te escribo
command-cancel = salir de la compra o de Atención al cliente (tu carrito se guarda)
command-stop = no recibir más novedades de la tienda
command-forgetme = borrar tus datos de esta tienda
help-title = Ayuda
help-intro = Usa los botones del menú principal para ver productos, tu carrito y tus pedidos, o para escribirnos.
help-commands = Comandos:
left-support = Has salido de Atención al cliente. Lo que enviaste ya lo tiene nuestro equipo, y las respuestas seguirán llegando a este chat.
nothing-to-cancel = No hay nada que cancelar. Menú principal: ¿qué quieres hacer?

## Idioma
language-button = 🌐 Idioma
language-choose = Elige tu idioma:
language-only-one = Esta tienda solo habla { $language }.
language-chosen = A partir de ahora te escribiré en español.

## Información, Mis datos
about-empty = Todavía no se ha añadido información.
my-data-button = 🔒 Mis datos
forget-button = 🗑 Borrar mis datos
forget-confirm-button = Sí, borrar mis datos
about-back-button = « Información
my-data-title = Mis datos
my-data-kept = Lo que esta tienda guarda sobre ti:
my-data-telegram-id = • Tu ID de Telegram, para responderte aquí
my-data-telegram-id-username = • Tu ID de Telegram y tu usuario @{ $username }, para responderte aquí
my-data-orders = • { $count ->
    [one] { $count } pedido
   *[other] { $count } pedidos
  }: importes, artículos y estado
my-data-orders-addresses = • { $count ->
    [one] { $count } pedido
   *[other] { $count } pedidos
  }: importes, artículos y estado, { $addresses ->
    [one] { $addresses } con dirección de entrega
   *[other] { $addresses } con direcciones de entrega
  }
my-data-messages = • { $count ->
    [one] { $count } mensaje a atención al cliente
   *[other] { $count } mensajes a atención al cliente
  }
my-data-note = • Una nota que la tienda guarda sobre ti, para atenderte mejor
my-data-broadcasts-on = • Novedades: activadas (envía /stop para desactivarlas)
my-data-broadcasts-off = • Novedades: desactivadas (envía /start para activarlas)
my-data-retention = Las direcciones de entrega se borran { $days ->
    [one] { $days } día
   *[other] { $days } días
  } después de completar o cancelar un pedido.
my-data-kept-with-orders = Las direcciones de entrega se guardan con sus pedidos.
my-data-forget-hint = Envía /forgetme o pulsa abajo para borrar ahora tus direcciones, mensajes y tu usuario. Los importes se quedan para la contabilidad de la tienda.
forget-confirm = ¿Borrar tus datos?
forget-confirm-details = Se borrarán tus direcciones de entrega (un pedido que aún está en camino conserva su dirección hasta que se envía), tus mensajes a atención al cliente y tu usuario. Los importes de tus pedidos se quedan para la contabilidad de la tienda. No se puede deshacer.
forget-done = Hecho: tus datos se han borrado.
forget-erased = Se han borrado { $addresses ->
    [one] { $addresses } dirección
   *[other] { $addresses } direcciones
  } y { $messages ->
    [one] { $messages } mensaje
   *[other] { $messages } mensajes
  }.
forget-kept = La dirección de { $orders ->
    [one] { $orders } pedido
   *[other] { $orders } pedidos
  } pendiente de envío se guarda hasta que se envía y después se borra.

## Ver productos
catalogue-other = Otros productos
catalogue-nothing = Todavía no hay productos. Vuelve pronto.
catalogue-choose-category = Elige una categoría:
category-gone = Esa categoría ya no está disponible.
category-nothing = Aquí todavía no hay productos.
category-choose-both = Elige una subcategoría o un producto:
category-choose-subcategory = Elige una subcategoría:
category-choose-product = Elige un producto:
product-button-out-of-stock = agotado
product-price = Precio: { $price }
product-price-from = Precio: desde { $price }
product-bulk-pricing = Precio por cantidad:
product-bulk-tier = • desde { $quantity } uds.: { $price }
product-stock = Disponibles: { $stock }
product-quantity = Cantidad: { $quantity } × { $unit } = { $total }
product-out-of-stock = Agotado
product-quantity-button = Cant.: { $quantity }
product-add-button = Añadir { $quantity } al carrito
product-cart-button = 🛒 Mi carrito
product-gone = Ese producto ya no está disponible.
notify-me-button = 🔔 Avísame cuando vuelva
notify-me-notice = Te escribiremos una vez, cuando vuelva a haber existencias.
added-to-cart = Has añadido { $quantity } × { $name } a tu carrito.
added-to-cart-total = Has añadido { $quantity } × { $name } a tu carrito. Ahora tienes { $inCart } en el carrito.
added-the-product = el producto

## Productos con opciones
options-changed = Las opciones de este producto han cambiado. Vuelve a elegir.
option-gone = Esa opción ya no está disponible. Vuelve a elegir.
option-value = { $option }: { $value }
option-not-chosen = sin elegir
options-combination-unavailable = Esa combinación no está disponible. Elige otra.
options-please-choose = Elige { $names }.
list-and = { $first } y { $last }
variant-sold-out = { $choice } está agotado
variant-none-in = No hay { $value } en { $others }
variant-unavailable = { $value } no está disponible

## Mi carrito
cart-empty = Tu carrito está vacío.
cart-subtotal = Subtotal: { $amount }
cart-empty-button = 🗑 Vaciar carrito
cart-checkout-button = ✅ Pagar
cart-emptied = Tu carrito está vacío ahora.

## Compra
checkout-name =
    Compra: nombre

    Envía el nombre completo de la persona que recibirá el paquete.
checkout-street =
    Compra: dirección

    Envía la dirección: calle, número y ciudad.
checkout-postcode =
    Compra: código postal

    Envía el código postal.
checkout-contact =
    Compra: contacto (opcional)

    Si quieres, envía un teléfono, un correo o un usuario de Telegram para contactarte sobre la entrega. O pulsa Omitir.
checkout-postage =
    Compra: envío

    Elige cómo quieres recibir tu pedido:
checkout-coin =
    Compra: pago

    Elige la criptomoneda con la que vas a pagar:
checkout-coupon =
    Compra: cupón

    Envía tu código de cupón.
checkout-cancel-button = ✖ Cancelar compra
checkout-skip-button = Omitir
checkout-confirm-button = ✅ Confirmar y pagar
checkout-add-coupon-button = 🏷 Añadir un cupón
checkout-remove-coupon-button = Quitar cupón
checkout-back-to-summary-button = ⬅ Volver al resumen
postage-option = { $name }: { $price }
postage-option-days = { $name }: { $price } ({ $days ->
    [one] { $days } día
   *[other] { $days } días
  })
summary-title = Revisa tu pedido
summary-line = { $quantity } × { $name } ({ $unit } c/u): { $total }
summary-subtotal = Subtotal: { $amount }
summary-discount = Descuento ({ $code }): −{ $amount }
summary-postage = Envío: { $postage }
summary-postage-none = ninguno
summary-total = Total: { $amount }
summary-deliver-to = Entregar a:
summary-contact = Contacto: { $contact }
summary-pay-with = Pago con: { $coin }
coupon-no-longer-applies = ⚠️ { $reason } Lo hemos quitado de tu pedido.
coupon-gone-at-confirm = ⚠️ { $reason } Lo hemos quitado de tu pedido, así que no se ha cobrado nada.
coupon-applied = ✅ Cupón { $code } aplicado.
coupon-removed = Cupón quitado.
checkout-cancelled = Compra cancelada. Tu carrito se guarda para más tarde.
checkout-choose-button = Elige uno de los botones de abajo.
checkout-send-text = Envía tu respuesta como mensaje de texto.
checkout-stale-button = Ese botón es de otro paso de la compra.
checkout-postage-gone = Esa forma de envío ya no está disponible.
checkout-coin-gone = Esa moneda ya no se acepta.
checkout-already-placing = Tu pedido ya se está realizando.
checkout-placing = Realizando tu pedido…
checkout-creating-payment = Preparando tu pago...
order-placed = Pedido #{ $order } realizado. Total: { $total }
payment-heading = Pago del pedido #{ $order }
payment-footer = Te escribiremos aquí en cuanto llegue tu pago.
payment-details-above = Los datos de pago están arriba y siempre en Mis pedidos.

## Datos de pago
payment-send-exactly = Para pagar, envía exactamente
payment-to-address = a esta dirección:
payment-pay-by = Paga antes del { $deadline }.
payment-page = O paga en la página de pago: { $url }

## Mis pedidos
orders-none = Todavía no tienes pedidos.
orders-recent = Mis pedidos (los más recientes primero)
orders-payment-button = 💳 Datos de pago #{ $order }
order-heading = Pedido #{ $order } · { $date }
order-total = Total: { $amount }
order-status = Estado: { $status }
order-item = • { $quantity } × { $name }
order-item-unlisted = Un producto que ya no está a la venta
order-more-items = • y { $count ->
    [one] { $count } artículo más
   *[other] { $count } artículos más
  }
payment-heading-total = Pago del pedido #{ $order } (total { $total })
payment-seen = Hemos visto tu pago de { $amount } { $coin } y se está confirmando. No tienes que enviar nada más; te escribiremos aquí cuando se confirme.
payment-send-rest = Hemos recibido { $paid } de { $amount } { $coin }. Envía el resto, por favor.
payment-part = una parte

## Atención al cliente
support-intro = Escribe tu mensaje y envíalo aquí. Nuestro equipo te responderá en este chat.
support-text-only = Envía tu mensaje a atención al cliente como texto.
support-sent = Gracias, tu mensaje ha llegado a nuestro equipo. Te responderemos aquí. Puedes enviar más mensajes o volver al menú.

## Novedades
broadcast-view-product = Ver producto
restock-back = ¡Buenas noticias: { $name } vuelve a estar disponible!

## /link del propietario
link-private = Conectado: aquí recibirás los avisos para el propietario de la tienda. Elige cuáles en Bot Settings → Owner alerts.
link-group = Conectado: este grupo recibirá los avisos para el propietario de la tienda. Elige cuáles en Bot Settings → Owner alerts.
link-bad-code = Ese código no es válido o ha caducado. Muestra uno nuevo en Bot Settings → Owner alerts.
link-no-code = Envía /link seguido del código que aparece en Bot Settings → Owner alerts, p. ej. /link 123456.

## Pagos y envíos (enviados fuera de una conversación)
payment-paid = Pago recibido para el pedido #{ $order }. ¡Gracias! Ya estamos preparando tu pedido para el envío.
payment-expired = El pedido #{ $order } ha caducado: el pago no llegó a tiempo, así que se ha cancelado y sus artículos se han liberado. Si ya enviaste un pago, contacta con atención al cliente.
payment-failed = El pago del pedido #{ $order } ha fallado, así que el pedido se ha cancelado. Si ya enviaste un pago, contacta con atención al cliente.
payment-refunded = El pago del pedido #{ $order } se ha reembolsado, así que el pedido se ha cancelado.
payment-partly-paid = Hemos recibido { $paid } { $coin } para el pedido #{ $order }, pero se deben { $due } { $coin }.
payment-partly-paid-send-rest = Envía los { $rest } { $coin } restantes a { $address } para completar tu pedido.
payment-partly-paid-contact = Contacta con atención al cliente para completar tu pedido.
payment-part-of-payment = una parte del pago
payment-more = más
order-cancelled-by-shop = La tienda ha cancelado el pedido #{ $order }.
order-cancelled-refund = Recibimos { $paid } { $coin } por él, que se te reembolsarán: contacta con atención al cliente y danos una dirección para el reembolso.
order-cancelled-no-payment = No se cobró nada por él. Si tienes alguna pregunta, contacta con atención al cliente.
payment-after-cancel = Hemos recibido { $paid } { $coin } para el pedido #{ $order }, pero el pedido ya estaba cancelado. Contacta con atención al cliente y lo solucionamos.
payment-a-payment = un pago
payment-too-late = Hemos recibido tu pago del pedido #{ $order }, pero el pedido ya había caducado y un artículo ya no está disponible. Contacta con atención al cliente y lo solucionamos.
checkout-abandoned = El pedido #{ $order } no se pudo completar: algo falló al crear su pago, así que no se cobró nada.
checkout-abandoned-cart-restored = Tus artículos vuelven a estar en tu carrito, así que puedes finalizar la compra de nuevo.
checkout-abandoned-order-again = Abre la tienda y haz tu pedido de nuevo.
dispatch-title = ¡Buenas noticias! Tu pedido #{ $order } ya está en camino.
dispatch-note = Nota de la tienda: { $note }
dispatch-thanks = Gracias por tu compra.

## Rechazos y comprobaciones de la tienda
refusal-quantity-zero-or-more = La cantidad debe ser un número entero de 0 o más.
refusal-quantity-at-least-one = La cantidad debe ser un número entero de al menos 1.
refusal-quantity-at-most = La cantidad puede ser como máximo { $max }.
refusal-product-gone = Ese producto ya no está disponible.
refusal-choose-options = Primero elige las opciones.
refusal-out-of-stock = { $name } está agotado.
refusal-only-left = Solo quedan { $stock } de { $name }.
refusal-only-left-in-cart = Solo quedan { $stock } de { $name }, y ya tienes { $inCart } en tu carrito.
cart-removed-gone = { $name } ya no está disponible, así que lo hemos quitado de tu carrito.
cart-removed-sold-out = { $name } está agotado, así que lo hemos quitado de tu carrito.
cart-quantity-lowered = Solo quedan { $stock } de { $name }, así que hemos bajado tu cantidad a { $stock }.
refusal-payments-unavailable = Ahora mismo no se pueden hacer pagos, así que los pedidos no se pueden pagar. Inténtalo de nuevo más tarde.
refusal-coin-not-accepted = No aceptamos { $coin }. Paga con { $coins }.
refusal-postage-gone = Esa opción de envío ya no está disponible. Elige otra.
refusal-cart-empty = Tu carrito está vacío.
refusal-item-gone = { $name } ya no está disponible. Revisa tu carrito.
refusal-order-too-large = Este pedido es demasiado grande para pagarlo de una vez. Divídelo en pedidos más pequeños.
refusal-address = Revisa la dirección de envío.
refusal-choose-coin = Elige BTC, LTC o XMR para pagar.
refusal-payments-not-configured = Los pagos aún no están configurados, así que ahora no se pueden pagar pedidos. Inténtalo de nuevo más tarde.
refusal-payment-not-created = No se pudo crear el pago. Hemos cancelado tu pedido y guardado tu carrito, así que puedes intentarlo de nuevo.
refusal-payment-too-slow = Crear tu pago tardó demasiado, así que hemos cancelado tu pedido y guardado tu carrito. Inténtalo de nuevo.
refusal-too-many-unpaid-orders = Ya tienes { $count } pedidos esperando el pago. Paga uno de ellos (mira Mis pedidos) o espera a que caduque uno antes de volver a pedir.
refusal-not-enough-stock = No hay suficiente stock de { $name }: solo quedan { $stock }.
refusal-not-enough-stock-gone = No hay suficiente stock de { $name }: ya no está disponible.
refusal-order-not-found = No encontramos ese pedido.
refusal-order-not-awaiting-payment = Ese pedido ya no está esperando un pago. Abre Mis pedidos para ver cómo va.
coupon-refused-unknown = No existe el cupón { $code }. Revisa el código e inténtalo de nuevo.
coupon-refused-not-a-code = Eso no es un código de cupón: los códigos tienen de 3 a 32 letras, cifras, - o _. Revísalo e inténtalo de nuevo.
coupon-refused-expired = El cupón { $code } ha caducado.
coupon-refused-not-started = El cupón { $code } todavía no se puede usar: empieza el { $start }.
coupon-refused-not-started-later = El cupón { $code } todavía no se puede usar: empieza más adelante.
coupon-refused-used-up = El cupón { $code } se ha agotado.
coupon-refused-already-used = Ya has usado el cupón { $code } todas las veces que permite.
coupon-refused-minimum-not-met = El cupón { $code } requiere artículos por al menos { $minimum } (sin envío); los tuyos suman { $items }.
coupon-refused-not-for-these-items = El cupón { $code } no se aplica a ningún artículo de tu carrito.
coupon-refused-first-order-only = El cupón { $code } es solo para un primer pedido.
address-refused-name = Envía un nombre de 2 a 100 caracteres, por ejemplo Ana García.
address-refused-street = Envía la dirección (de 5 a 300 caracteres), por ejemplo Calle Mayor 12, Madrid.
address-refused-postcode = Eso no parece un código postal. Envíalo de nuevo, por ejemplo 28013.
address-refused-contact = Envía un contacto de 3 a 100 caracteres, o pulsa Omitir.

## Estado del pedido (Mis pedidos)
order-status-underpaid-due = Pago incompleto: faltan { $due } { $coin }
order-status-underpaid = Pago incompleto: envía el resto
order-status-confirming = Pago recibido, en confirmación
order-status-awaiting-payment = Esperando el pago
order-status-processing = Pagado, preparándose para el envío
order-status-dispatched = Enviado
order-status-completed = Completado
order-status-refunded = Reembolsado
order-status-cancelled-refund-due = Cancelado por la tienda: te reembolsaremos el pago
order-status-cancelled-by-shop = Cancelado por la tienda
order-status-paid-too-late = Cancelado: tu pago llegó demasiado tarde, contacta con atención al cliente
order-status-expired = Caducado: no llegó ningún pago
order-status-payment-not-created = Cancelado: no se pudo crear el pago
order-status-payment-failed = Cancelado: el pago falló
order-status-no-payment = Cancelado: no llegó ningún pago
order-status-other = { $status }

## Dónde está el paquete
parcel-carrier = Transportista: { $carrier }
parcel-tracking-number = Número de seguimiento: { $number }
parcel-track-link = Sigue tu paquete: { $link }
