# Die Texte des Bots auf Deutsch. Gleiche Schlüssel und Variablen wie en.ftl (locales.test.ts).

## Hauptmenü und gemeinsame Knöpfe
menu-browse = Produkte ansehen
menu-cart = Warenkorb
menu-orders = Meine Bestellungen
menu-support = Kundenservice
menu-about = Über uns
menu-open-shop = 🛍 Shop öffnen
main-menu-text = Hauptmenü: Was möchtest du tun?
main-menu-button = « Hauptmenü
back-button = « Zurück
cancel-button = Abbrechen
pager-previous = ‹ Zurück
pager-page = Seite { $page } von { $pages }
pager-next = Weiter ›
warning = ⚠️ { $text }
error-generic = Entschuldigung, da ist etwas schiefgelaufen. Bitte versuche es noch einmal.
blocked = Entschuldigung, dieser Shop steht dir nicht zur Verfügung.
too-many-requests = Zu viele Anfragen. Bitte warte eine Minute und versuche es dann noch einmal.
button-invalid = Dieser Knopf gilt nicht mehr. Hier ist das Hauptmenü.
not-understood = Entschuldigung, das habe ich nicht verstanden. Bitte wähle etwas aus dem Menü:

## /start, /stop
welcome-default = Willkommen in unserem Shop! Stöbere in unseren Produkten, bestelle und bezahle sicher mit Kryptowährung.
opted-in = Du bekommst unsere Neuigkeiten wieder. Mit /stop schaltest du sie ab.
opted-out = Du bekommst keine Neuigkeiten mehr von uns. Mit /start bekommst du sie wieder.

## Befehle und /help
command-start = Begrüßung und Hauptmenü
command-menu = das Hauptmenü
command-help = diese Liste
command-language = die Sprache wählen, in der ich schreibe
command-cancel = Bestellung oder Kundenservice verlassen (der Warenkorb bleibt)
command-stop = keine Neuigkeiten mehr vom Shop
command-forgetme = deine Daten in diesem Shop löschen
help-title = Hilfe
help-intro = Über die Knöpfe im Hauptmenü siehst du Produkte, deinen Warenkorb und deine Bestellungen oder schreibst uns.
help-commands = Befehle:
left-support = Du hast den Kundenservice verlassen. Deine Nachrichten sind bei unserem Team, und Antworten kommen weiter in diesen Chat.
nothing-to-cancel = Es gibt nichts abzubrechen. Hauptmenü: Was möchtest du tun?

## Sprache
language-button = 🌐 Sprache
language-choose = Wähle deine Sprache:
language-only-one = Dieser Shop spricht nur { $language }.
language-chosen = Ab jetzt schreibe ich dir auf Deutsch.

## Über uns, Meine Daten
about-empty = Hier gibt es noch keine Informationen.
my-data-button = 🔒 Meine Daten
forget-button = 🗑 Meine Daten löschen
forget-confirm-button = Ja, meine Daten löschen
about-back-button = « Über uns
my-data-title = Meine Daten
my-data-kept = Das speichert dieser Shop über dich:
my-data-telegram-id = • Deine Telegram-ID, um dir hier zu antworten
my-data-telegram-id-username = • Deine Telegram-ID und dein Benutzername @{ $username }, um dir hier zu antworten
my-data-orders = • { $count ->
    [one] { $count } Bestellung
   *[other] { $count } Bestellungen
  }: Beträge, Artikel und Status
my-data-orders-addresses = • { $count ->
    [one] { $count } Bestellung
   *[other] { $count } Bestellungen
  }: Beträge, Artikel und Status, { $addresses ->
    [one] { $addresses } davon mit Lieferadresse
   *[other] { $addresses } davon mit Lieferadressen
  }
my-data-messages = • { $count ->
    [one] { $count } Nachricht an den Kundenservice
   *[other] { $count } Nachrichten an den Kundenservice
  }
my-data-note = • Eine Notiz des Shops über dich, um dich gut zu bedienen
my-data-broadcasts-on = • Neuigkeiten: an (mit /stop abschalten)
my-data-broadcasts-off = • Neuigkeiten: aus (mit /start einschalten)
my-data-retention = Lieferadressen werden { $days ->
    [one] { $days } Tag
   *[other] { $days } Tage
  } nach Abschluss oder Stornierung einer Bestellung gelöscht.
my-data-kept-with-orders = Lieferadressen bleiben bei ihren Bestellungen.
my-data-forget-hint = Sende /forgetme oder tippe unten, um deine Adressen, Nachrichten und deinen Benutzernamen jetzt zu löschen. Beträge bleiben für die Buchhaltung des Shops.
forget-confirm = Deine Daten löschen?
forget-confirm-details = Gelöscht werden deine Lieferadressen (eine Bestellung, die noch unterwegs ist, behält ihre Adresse bis zum Versand), deine Nachrichten an den Kundenservice und dein Benutzername. Die Beträge deiner Bestellungen bleiben für die Buchhaltung des Shops. Das lässt sich nicht rückgängig machen.
forget-done = Erledigt: Deine Daten sind gelöscht.
forget-erased = { $addresses ->
    [one] { $addresses } Adresse
   *[other] { $addresses } Adressen
  } und { $messages ->
    [one] { $messages } Nachricht
   *[other] { $messages } Nachrichten
  } gelöscht.
forget-kept = Die Adresse von { $orders ->
    [one] { $orders } Bestellung
   *[other] { $orders } Bestellungen
  }, die noch verschickt werden, bleibt bis zum Versand und wird dann gelöscht.

## Produkte ansehen
catalogue-other = Weitere Produkte
catalogue-nothing = Noch gibt es hier keine Produkte. Schau bald wieder vorbei.
catalogue-choose-category = Wähle eine Kategorie:
category-gone = Diese Kategorie gibt es nicht mehr.
category-nothing = Hier gibt es noch keine Produkte.
category-choose-both = Wähle eine Unterkategorie oder ein Produkt:
category-choose-subcategory = Wähle eine Unterkategorie:
category-choose-product = Wähle ein Produkt:
product-button-out-of-stock = ausverkauft
product-price = Preis: { $price }
product-price-from = Preis: ab { $price }
product-bulk-pricing = Mengenrabatt:
product-bulk-tier = • ab { $quantity } Stück: { $price }
product-stock = Auf Lager: { $stock }
product-quantity = Menge: { $quantity } × { $unit } = { $total }
product-out-of-stock = Ausverkauft
product-quantity-button = Menge: { $quantity }
product-add-button = { $quantity } in den Warenkorb
product-cart-button = 🛒 Warenkorb
product-gone = Dieses Produkt gibt es nicht mehr.
notify-me-button = 🔔 Benachrichtigen, wenn wieder da
notify-me-notice = Wir schreiben dir einmal, sobald es wieder auf Lager ist.
added-to-cart = { $quantity } × { $name } liegt jetzt in deinem Warenkorb.
added-to-cart-total = { $quantity } × { $name } hinzugefügt. Du hast jetzt { $inCart } davon im Warenkorb.
added-the-product = das Produkt

## Produkte mit Varianten
options-changed = Die Varianten dieses Produkts haben sich geändert. Bitte wähle noch einmal.
option-gone = Diese Variante gibt es nicht mehr. Bitte wähle noch einmal.
option-value = { $option }: { $value }
option-not-chosen = noch nicht gewählt
options-combination-unavailable = Diese Kombination gibt es nicht. Bitte wähle eine andere.
options-please-choose = Bitte wähle { $names }.
list-and = { $first } und { $last }
variant-sold-out = { $choice } ist ausverkauft
variant-none-in = { $value } gibt es nicht in { $others }
variant-unavailable = { $value } ist nicht erhältlich

## Warenkorb
cart-empty = Dein Warenkorb ist leer.
cart-subtotal = Zwischensumme: { $amount }
cart-empty-button = 🗑 Warenkorb leeren
cart-checkout-button = ✅ Zur Kasse
cart-emptied = Dein Warenkorb ist jetzt leer.

## Kasse
checkout-name =
    Kasse: Name

    Bitte sende den vollständigen Namen der Person, die das Paket bekommt.
checkout-street =
    Kasse: Adresse

    Bitte sende die Adresse: Straße, Hausnummer und Ort.
checkout-postcode =
    Kasse: Postleitzahl

    Bitte sende die Postleitzahl.
checkout-contact =
    Kasse: Kontakt (optional)

    Wenn du magst, sende eine Telefonnummer, E-Mail-Adresse oder einen Telegram-Namen, unter dem wir dich wegen der Lieferung erreichen. Oder tippe auf Überspringen.
checkout-postage =
    Kasse: Versand

    Bitte wähle, wie deine Bestellung verschickt wird:
checkout-coin =
    Kasse: Bezahlung

    Bitte wähle die Kryptowährung, mit der du bezahlst:
checkout-coupon =
    Kasse: Gutschein

    Bitte sende deinen Gutscheincode.
checkout-cancel-button = ✖ Bestellung abbrechen
checkout-skip-button = Überspringen
checkout-confirm-button = ✅ Bestätigen und bezahlen
checkout-add-coupon-button = 🏷 Gutschein einlösen
checkout-remove-coupon-button = Gutschein entfernen
checkout-back-to-summary-button = ⬅ Zurück zur Übersicht
postage-option = { $name }: { $price }
postage-option-days = { $name }: { $price } ({ $days ->
    [one] { $days } Tag
   *[other] { $days } Tage
  })
summary-title = Bitte prüfe deine Bestellung
summary-line = { $quantity } × { $name } (je { $unit }): { $total }
summary-subtotal = Zwischensumme: { $amount }
summary-discount = Rabatt ({ $code }): −{ $amount }
summary-postage = Versand: { $postage }
summary-postage-none = keiner
summary-total = Gesamt: { $amount }
summary-deliver-to = Lieferung an:
summary-contact = Kontakt: { $contact }
summary-pay-with = Bezahlung mit: { $coin }
coupon-no-longer-applies = ⚠️ { $reason } Er wurde aus deiner Bestellung entfernt.
coupon-gone-at-confirm = ⚠️ { $reason } Er wurde aus deiner Bestellung entfernt, es wurde also nichts berechnet.
coupon-applied = ✅ Gutschein { $code } eingelöst.
coupon-removed = Gutschein entfernt.
checkout-cancelled = Bestellung abgebrochen. Dein Warenkorb bleibt für später.
checkout-choose-button = Bitte wähle einen der Knöpfe unten.
checkout-send-text = Bitte sende deine Antwort als Textnachricht.
checkout-stale-button = Dieser Knopf gehört zu einem anderen Schritt der Bestellung.
checkout-postage-gone = Diese Versandart gibt es nicht mehr.
checkout-coin-gone = Diese Währung wird nicht mehr angenommen.
checkout-already-placing = Deine Bestellung wird bereits aufgegeben.
checkout-placing = Deine Bestellung wird aufgegeben…
checkout-creating-payment = Die Zahlung wird vorbereitet...
order-placed = Bestellung #{ $order } ist aufgegeben. Gesamt: { $total }
payment-heading = Zahlung für Bestellung #{ $order }
payment-footer = Wir melden uns hier, sobald deine Zahlung da ist.
payment-details-above = Die Zahlungsdaten stehen oben und jederzeit unter Meine Bestellungen.

## Zahlungsdaten
payment-send-exactly = Zum Bezahlen sende genau
payment-to-address = an diese Adresse:
payment-pay-by = Bitte bezahle bis { $deadline }.
payment-page = Oder bezahle auf der Zahlungsseite: { $url }

## Meine Bestellungen
orders-none = Du hast noch keine Bestellungen.
orders-recent = Meine Bestellungen (neueste zuerst)
orders-payment-button = 💳 Zahlungsdaten #{ $order }
order-heading = Bestellung #{ $order } · { $date }
order-total = Gesamt: { $amount }
order-status = Status: { $status }
order-item = • { $quantity } × { $name }
order-item-unlisted = Ein Produkt, das es nicht mehr gibt
order-more-items = • und { $count ->
    [one] { $count } weiterer Artikel
   *[other] { $count } weitere Artikel
  }
payment-heading-total = Zahlung für Bestellung #{ $order } (gesamt { $total })
payment-seen = Deine Zahlung von { $amount } { $coin } ist eingegangen und wird bestätigt. Du musst nichts mehr senden; wir melden uns hier, sobald sie bestätigt ist.
payment-send-rest = Wir haben { $paid } von { $amount } { $coin } erhalten. Bitte sende den Rest.
payment-part = einen Teil

## Kundenservice
support-intro = Schreib deine Nachricht und sende sie hier. Unser Team antwortet in diesem Chat.
support-text-only = Bitte sende deine Nachricht an den Kundenservice als Text.
support-sent = Danke, deine Nachricht ist bei unserem Kundenservice angekommen. Wir antworten hier. Du kannst weitere Nachrichten senden oder zum Menü zurückgehen.

## Neuigkeiten
broadcast-view-product = Produkt ansehen
restock-back = Gute Nachricht: { $name } ist wieder auf Lager!

## /link des Inhabers
link-private = Verbunden: Du bekommst hier die Hinweise für Shop-Inhaber. Welche, wählst du in Bot Settings → Owner alerts.
link-group = Verbunden: Diese Gruppe bekommt die Hinweise für Shop-Inhaber. Welche, wählst du in Bot Settings → Owner alerts.
link-bad-code = Dieser Code ist ungültig oder abgelaufen. Lass dir in Bot Settings → Owner alerts einen neuen zeigen.
link-no-code = Sende /link und dahinter den Code aus Bot Settings → Owner alerts, z. B. /link 123456.

## Zahlungen und Versand (außerhalb eines Gesprächs gesendet)
payment-paid = Zahlung für Bestellung #{ $order } erhalten. Danke! Deine Bestellung wird jetzt für den Versand vorbereitet.
payment-expired = Bestellung #{ $order } ist abgelaufen: Es kam keine Zahlung rechtzeitig an, daher wurde sie storniert und die Artikel freigegeben. Falls du schon bezahlt hast, wende dich bitte an den Kundenservice.
payment-failed = Die Zahlung für Bestellung #{ $order } ist fehlgeschlagen, daher wurde die Bestellung storniert. Falls du schon bezahlt hast, wende dich bitte an den Kundenservice.
payment-refunded = Die Zahlung für Bestellung #{ $order } wurde erstattet, daher wurde die Bestellung storniert.
payment-partly-paid = Wir haben { $paid } { $coin } für Bestellung #{ $order } erhalten, fällig sind aber { $due } { $coin }.
payment-partly-paid-send-rest = Bitte sende die restlichen { $rest } { $coin } an { $address }, um deine Bestellung abzuschließen.
payment-partly-paid-contact = Bitte wende dich an den Kundenservice, um deine Bestellung abzuschließen.
payment-part-of-payment = einen Teil der Zahlung
payment-more = mehr
order-cancelled-by-shop = Bestellung #{ $order } wurde vom Shop storniert.
order-cancelled-refund = Wir haben dafür { $paid } { $coin } erhalten, die erstattet werden: Bitte schreib dem Kundenservice eine Adresse für die Erstattung.
order-cancelled-no-payment = Es wurde keine Zahlung dafür eingezogen. Bei Fragen wende dich bitte an den Kundenservice.
payment-after-cancel = Wir haben { $paid } { $coin } für Bestellung #{ $order } erhalten, aber die Bestellung war schon storniert. Bitte wende dich an den Kundenservice, wir klären das.
payment-a-payment = eine Zahlung
payment-too-late = Wir haben deine Zahlung für Bestellung #{ $order } erhalten, aber die Bestellung war schon abgelaufen und ein Artikel ist nicht mehr auf Lager. Bitte wende dich an den Kundenservice, wir klären das.
checkout-abandoned = Bestellung #{ $order } konnte nicht abgeschlossen werden: Beim Erstellen der Zahlung ist etwas schiefgegangen, daher wurde keine Zahlung eingezogen.
checkout-abandoned-cart-restored = Deine Artikel liegen wieder in deinem Warenkorb, du kannst also noch einmal zur Kasse gehen.
checkout-abandoned-order-again = Bitte öffne den Shop und bestelle noch einmal.
dispatch-title = Gute Nachricht! Deine Bestellung #{ $order } ist verschickt.
dispatch-note = Hinweis vom Shop: { $note }
dispatch-thanks = Danke für deinen Einkauf.

## Ablehnungen und Prüfungen des Shops
refusal-quantity-zero-or-more = Die Menge muss eine ganze Zahl ab 0 sein.
refusal-quantity-at-least-one = Die Menge muss eine ganze Zahl ab 1 sein.
refusal-quantity-at-most = Die Menge darf höchstens { $max } sein.
refusal-product-gone = Dieses Produkt ist nicht mehr erhältlich.
refusal-choose-options = Bitte wähle zuerst die Optionen aus.
refusal-out-of-stock = { $name } ist ausverkauft.
refusal-only-left = Von { $name } sind nur noch { $stock } übrig.
refusal-only-left-in-cart = Von { $name } sind nur noch { $stock } übrig, und { $inCart } { $inCart ->
    [one] liegt
   *[other] liegen
  } schon in deinem Warenkorb.
cart-removed-gone = { $name } ist nicht mehr erhältlich und wurde aus deinem Warenkorb entfernt.
cart-removed-sold-out = { $name } ist ausverkauft und wurde aus deinem Warenkorb entfernt.
cart-quantity-lowered = Von { $name } sind nur noch { $stock } übrig, deshalb wurde deine Menge auf { $stock } gesenkt.
refusal-payments-unavailable = Zahlungen sind gerade nicht möglich, daher können Bestellungen nicht bezahlt werden. Bitte versuche es später noch einmal.
refusal-coin-not-accepted = { $coin } wird nicht angenommen. Bitte bezahle mit { $coins }.
refusal-postage-gone = Diese Versandart ist nicht mehr verfügbar. Bitte wähle eine andere.
refusal-cart-empty = Dein Warenkorb ist leer.
refusal-item-gone = { $name } ist nicht mehr erhältlich. Bitte prüfe deinen Warenkorb.
refusal-order-too-large = Diese Bestellung ist zu groß, um sie auf einmal zu bezahlen. Bitte teile sie in kleinere Bestellungen auf.
refusal-address = Bitte prüfe die Lieferadresse.
refusal-choose-coin = Bitte wähle BTC, LTC oder XMR zum Bezahlen.
refusal-payments-not-configured = Zahlungen sind noch nicht eingerichtet, daher können Bestellungen gerade nicht bezahlt werden. Bitte versuche es später noch einmal.
refusal-payment-not-created = Die Zahlung konnte nicht erstellt werden. Deine Bestellung wurde storniert und dein Warenkorb behalten, du kannst es also noch einmal versuchen.
refusal-payment-too-slow = Das Erstellen der Zahlung hat zu lange gedauert, daher wurde deine Bestellung storniert und dein Warenkorb behalten. Bitte versuche es noch einmal.
refusal-too-many-unpaid-orders = Du hast schon { $count } Bestellungen, die auf deine Zahlung warten. Bezahle eine davon (siehe „Meine Bestellungen“) oder warte, bis eine abläuft, bevor du wieder bestellst.
refusal-not-enough-stock = Nicht genug auf Lager für { $name }: nur noch { $stock } übrig.
refusal-not-enough-stock-gone = Nicht genug auf Lager für { $name }: nicht mehr erhältlich.
refusal-order-not-found = Diese Bestellung wurde nicht gefunden.
refusal-order-not-awaiting-payment = Diese Bestellung wartet nicht mehr auf eine Zahlung. Unter „Meine Bestellungen“ siehst du, wo sie steht.
coupon-refused-unknown = Es gibt keinen Gutschein { $code }. Bitte prüfe den Code und versuche es noch einmal.
coupon-refused-not-a-code = Das ist kein Gutscheincode: Codes bestehen aus 3 bis 32 Buchstaben, Ziffern, - oder _. Bitte prüfe ihn und versuche es noch einmal.
coupon-refused-expired = Der Gutschein { $code } ist abgelaufen.
coupon-refused-not-started = Der Gutschein { $code } gilt noch nicht: Er startet am { $start }.
coupon-refused-not-started-later = Der Gutschein { $code } gilt noch nicht: Er startet erst später.
coupon-refused-used-up = Der Gutschein { $code } ist aufgebraucht.
coupon-refused-already-used = Du hast den Gutschein { $code } schon so oft eingelöst, wie er erlaubt.
coupon-refused-minimum-not-met = Der Gutschein { $code } gilt ab einem Warenwert von { $minimum } (ohne Versand); deiner liegt bei { $items }.
coupon-refused-not-for-these-items = Der Gutschein { $code } gilt für keinen Artikel in deinem Warenkorb.
coupon-refused-first-order-only = Der Gutschein { $code } gilt nur für die erste Bestellung.
address-refused-name = Bitte sende einen Namen mit 2 bis 100 Zeichen, zum Beispiel Erika Mustermann.
address-refused-street = Bitte sende die Straße mit Hausnummer (5 bis 300 Zeichen), zum Beispiel Hauptstraße 12, Berlin.
address-refused-postcode = Das sieht nicht nach einer Postleitzahl aus. Bitte sende sie noch einmal, zum Beispiel 10115.
address-refused-contact = Bitte sende einen Kontakt mit 3 bis 100 Zeichen oder tippe auf Überspringen.

## Bestellstatus (Meine Bestellungen)
order-status-underpaid-due = Zu wenig bezahlt: noch { $due } { $coin } offen
order-status-underpaid = Zu wenig bezahlt: bitte sende den Rest
order-status-confirming = Zahlung erhalten, wird bestätigt
order-status-awaiting-payment = Wartet auf Zahlung
order-status-processing = Bezahlt, wird für den Versand vorbereitet
order-status-dispatched = Versendet
order-status-completed = Abgeschlossen
order-status-refunded = Erstattet
order-status-cancelled-refund-due = Vom Shop storniert: deine Zahlung wird erstattet
order-status-cancelled-by-shop = Vom Shop storniert
order-status-paid-too-late = Storniert: deine Zahlung kam zu spät, bitte wende dich an den Support
order-status-expired = Abgelaufen: keine Zahlung eingegangen
order-status-payment-not-created = Storniert: die Zahlung konnte nicht erstellt werden
order-status-payment-failed = Storniert: die Zahlung ist fehlgeschlagen
order-status-no-payment = Storniert: keine Zahlung eingegangen
order-status-other = { $status }

## Wo das Paket ist
parcel-carrier = Versanddienst: { $carrier }
parcel-tracking-number = Sendungsnummer: { $number }
parcel-track-link = Sendung verfolgen: { $link }
