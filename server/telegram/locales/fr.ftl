# Les textes du bot en français. Mêmes clés et variables que en.ftl (locales.test.ts).

## Menu principal et boutons communs
menu-browse = Voir les produits
menu-cart = Mon panier
menu-orders = Mes commandes
menu-support = Service client
menu-about = À propos
menu-open-shop = 🛍 Ouvrir la boutique
main-menu-text = Menu principal : que voulez-vous faire ?
main-menu-button = « Menu principal
back-button = « Retour
cancel-button = Annuler
pager-previous = ‹ Précédent
pager-page = Page { $page } sur { $pages }
pager-next = Suivant ›
warning = ⚠️ { $text }
error-generic = Désolé, un problème est survenu. Veuillez réessayer.
blocked = Désolé, cette boutique ne vous est pas accessible.
too-many-requests = Trop de demandes. Veuillez patienter une minute, puis réessayer.
button-invalid = Ce bouton n’est plus valable. Voici le menu principal.
not-understood = Désolé, je n’ai pas compris. Choisissez une option du menu :

## /start, /stop
welcome-default = Bienvenue dans notre boutique ! Découvrez nos produits, passez commande et payez en toute sécurité en cryptomonnaie.
opted-in = Vous recevrez de nouveau nos annonces. Envoyez /stop pour les désactiver.
opted-out = Vous ne recevrez plus nos annonces. Envoyez /start pour les recevoir de nouveau.

## Commandes et /help
command-start = le message d’accueil et le menu principal
command-menu = le menu principal
command-help = cette liste
command-language = choisir la langue dans laquelle je vous écris
command-cancel = quitter la commande ou le service client (votre panier est conservé)
command-stop = ne plus recevoir les annonces de la boutique
command-forgetme = effacer vos données de cette boutique
help-title = Aide
help-intro = Utilisez les boutons du menu principal pour voir les produits, votre panier et vos commandes, ou pour nous écrire.
help-commands = Commandes :
left-support = Vous avez quitté le service client. Votre message est bien chez notre équipe, et les réponses arriveront toujours dans ce chat.
nothing-to-cancel = Il n’y a rien à annuler. Menu principal : que voulez-vous faire ?

## Langue
language-button = 🌐 Langue
language-choose = Choisissez votre langue :
language-only-one = Cette boutique parle seulement { $language }.
language-chosen = Désormais, je vous écris en français.

## À propos, Mes données
about-empty = Aucune information n’a encore été ajoutée.
my-data-button = 🔒 Mes données
forget-button = 🗑 Effacer mes données
forget-confirm-button = Oui, effacer mes données
about-back-button = « À propos
my-data-title = Mes données
my-data-kept = Ce que cette boutique conserve à votre sujet :
my-data-telegram-id = • Votre identifiant Telegram, pour vous répondre ici
my-data-telegram-id-username = • Votre identifiant Telegram et votre nom d’utilisateur @{ $username }, pour vous répondre ici
my-data-orders = • { $count ->
    [one] { $count } commande
   *[other] { $count } commandes
  } : montants, articles et statut
my-data-orders-addresses = • { $count ->
    [one] { $count } commande
   *[other] { $count } commandes
  } : montants, articles et statut, { $addresses ->
    [one] dont { $addresses } avec une adresse de livraison
   *[other] dont { $addresses } avec une adresse de livraison
  }
my-data-messages = • { $count ->
    [one] { $count } message au service client
   *[other] { $count } messages au service client
  }
my-data-note = • Une note de la boutique à votre sujet, pour mieux vous servir
my-data-broadcasts-on = • Annonces : activées (envoyez /stop pour les désactiver)
my-data-broadcasts-off = • Annonces : désactivées (envoyez /start pour les activer)
my-data-retention = Les adresses de livraison sont effacées { $days ->
    [one] { $days } jour
   *[other] { $days } jours
  } après la fin ou l’annulation d’une commande.
my-data-kept-with-orders = Les adresses de livraison sont conservées avec leurs commandes.
my-data-forget-hint = Envoyez /forgetme, ou touchez ci-dessous, pour effacer maintenant vos adresses, vos messages et votre nom d’utilisateur. Les montants restent pour la comptabilité de la boutique.
forget-confirm = Effacer vos données ?
forget-confirm-details = Cela efface vos adresses de livraison (une commande encore en route garde son adresse jusqu’à son expédition), vos messages au service client et votre nom d’utilisateur. Les montants de vos commandes restent pour la comptabilité de la boutique. C’est irréversible.
forget-done = C’est fait : vos données sont effacées.
forget-erased = { $addresses ->
    [one] { $addresses } adresse
   *[other] { $addresses } adresses
  } et { $messages ->
    [one] { $messages } message
   *[other] { $messages } messages
  } effacés.
forget-kept = L’adresse de { $orders ->
    [one] { $orders } commande
   *[other] { $orders } commandes
  } encore à expédier est conservée jusqu’à l’expédition, puis effacée.

## Voir les produits
catalogue-other = Autres produits
catalogue-nothing = Il n’y a pas encore de produits. Revenez bientôt.
catalogue-choose-category = Choisissez une catégorie :
category-gone = Cette catégorie n’est plus disponible.
category-nothing = Il n’y a pas encore de produits ici.
category-choose-both = Choisissez une sous-catégorie ou un produit :
category-choose-subcategory = Choisissez une sous-catégorie :
category-choose-product = Choisissez un produit :
product-button-out-of-stock = épuisé
product-price = Prix : { $price }
product-price-from = Prix : à partir de { $price }
product-bulk-pricing = Prix dégressifs :
product-bulk-tier = • à partir de { $quantity } : { $price }
product-stock = En stock : { $stock }
product-quantity = Quantité : { $quantity } × { $unit } = { $total }
product-out-of-stock = Épuisé
product-quantity-button = Qté : { $quantity }
product-add-button = Ajouter { $quantity } au panier
product-cart-button = 🛒 Mon panier
product-gone = Ce produit n’est plus disponible.
notify-me-button = 🔔 Me prévenir du retour
notify-me-notice = Nous vous écrirons une fois, dès qu’il sera de retour en stock.
added-to-cart = { $quantity } × { $name } ajouté à votre panier.
added-to-cart-total = { $quantity } × { $name } ajouté à votre panier. Vous en avez maintenant { $inCart } dans votre panier.
added-the-product = le produit

## Produits avec options
options-changed = Les options de ce produit ont changé. Veuillez choisir de nouveau.
option-gone = Cette option n’est plus disponible. Veuillez choisir de nouveau.
option-value = { $option } : { $value }
option-not-chosen = pas encore choisi
options-combination-unavailable = Cette combinaison n’est pas disponible. Choisissez-en une autre.
options-please-choose = Veuillez choisir { $names }.
list-and = { $first } et { $last }
variant-sold-out = { $choice } est épuisé
variant-none-in = Pas de { $value } en { $others }
variant-unavailable = { $value } n’est pas disponible

## Mon panier
cart-empty = Votre panier est vide.
cart-subtotal = Sous-total : { $amount }
cart-empty-button = 🗑 Vider le panier
cart-checkout-button = ✅ Commander
cart-emptied = Votre panier est maintenant vide.

## Commande
checkout-name =
    Commande : nom

    Envoyez le nom complet de la personne qui recevra le colis.
checkout-street =
    Commande : adresse

    Envoyez l’adresse : numéro, rue et ville.
checkout-postcode =
    Commande : code postal

    Envoyez le code postal.
checkout-contact =
    Commande : contact (facultatif)

    Si vous le souhaitez, envoyez un numéro de téléphone, un e-mail ou un nom Telegram pour vous joindre au sujet de la livraison. Ou touchez Passer.
checkout-postage =
    Commande : livraison

    Choisissez comment votre commande est envoyée :
checkout-coin =
    Commande : paiement

    Choisissez la cryptomonnaie avec laquelle vous payez :
checkout-coupon =
    Commande : code promo

    Envoyez votre code promo.
checkout-cancel-button = ✖ Annuler la commande
checkout-skip-button = Passer
checkout-confirm-button = ✅ Confirmer et payer
checkout-add-coupon-button = 🏷 Ajouter un code promo
checkout-remove-coupon-button = Retirer le code promo
checkout-back-to-summary-button = ⬅ Retour au récapitulatif
postage-option = { $name } : { $price }
postage-option-days = { $name } : { $price } ({ $days ->
    [one] { $days } jour
   *[other] { $days } jours
  })
summary-title = Vérifiez votre commande
summary-line = { $quantity } × { $name } ({ $unit } l’unité) : { $total }
summary-subtotal = Sous-total : { $amount }
summary-discount = Remise ({ $code }) : −{ $amount }
summary-postage = Livraison : { $postage }
summary-postage-none = aucune
summary-total = Total : { $amount }
summary-deliver-to = Livrer à :
summary-contact = Contact : { $contact }
summary-pay-with = Paiement en : { $coin }
coupon-no-longer-applies = ⚠️ { $reason } Il a été retiré de votre commande.
coupon-gone-at-confirm = ⚠️ { $reason } Il a été retiré de votre commande : rien n’a été débité.
coupon-applied = ✅ Code promo { $code } appliqué.
coupon-removed = Code promo retiré.
checkout-cancelled = Commande annulée. Votre panier est conservé pour plus tard.
checkout-choose-button = Choisissez l’un des boutons ci-dessous.
checkout-send-text = Envoyez votre réponse sous forme de message texte.
checkout-stale-button = Ce bouton appartient à une autre étape de la commande.
checkout-postage-gone = Ce mode de livraison n’est plus disponible.
checkout-coin-gone = Cette monnaie n’est plus acceptée.
checkout-already-placing = Votre commande est déjà en cours.
checkout-placing = Commande en cours…
checkout-creating-payment = Préparation de votre paiement...
order-placed = La commande #{ $order } est passée. Total : { $total }
payment-heading = Paiement de la commande #{ $order }
payment-footer = Nous vous écrirons ici dès que votre paiement arrivera.
payment-details-above = Les informations de paiement sont ci-dessus, et à tout moment dans Mes commandes.

## Informations de paiement
payment-send-exactly = Pour payer, envoyez exactement
payment-to-address = à cette adresse :
payment-pay-by = Veuillez payer avant le { $deadline }.
payment-page = Ou payez sur la page de paiement : { $url }

## Mes commandes
orders-none = Vous n’avez pas encore de commande.
orders-recent = Mes commandes (les plus récentes d’abord)
orders-payment-button = 💳 Informations de paiement #{ $order }
order-heading = Commande #{ $order } · { $date }
order-total = Total : { $amount }
order-status = Statut : { $status }
order-item = • { $quantity } × { $name }
order-item-unlisted = Un produit qui n’est plus proposé
order-more-items = • et { $count ->
    [one] { $count } autre article
   *[other] { $count } autres articles
  }
payment-heading-total = Paiement de la commande #{ $order } (total { $total })
payment-seen = Votre paiement de { $amount } { $coin } a été vu et est en cours de confirmation. Vous n’avez plus rien à envoyer ; nous vous écrirons ici dès qu’il sera confirmé.
payment-send-rest = Nous avons reçu { $paid } sur { $amount } { $coin }. Veuillez envoyer le reste.
payment-part = une partie

## Service client
support-intro = Écrivez votre message et envoyez-le ici. Notre équipe vous répondra dans ce chat.
support-text-only = Veuillez envoyer votre message au service client sous forme de texte.
support-sent = Merci, votre message a bien été transmis à notre service client. Nous vous répondrons ici. Vous pouvez envoyer d’autres messages ou revenir au menu.

## Annonces
broadcast-view-product = Voir le produit
restock-back = Bonne nouvelle : { $name } est de retour en stock !

## /link du propriétaire
link-private = Associé : vous recevrez ici les alertes du propriétaire de la boutique. Choisissez lesquelles dans Bot Settings → Owner alerts.
link-group = Associé : ce groupe recevra les alertes du propriétaire de la boutique. Choisissez lesquelles dans Bot Settings → Owner alerts.
link-bad-code = Ce code n’est pas valable ou a expiré. Affichez-en un nouveau dans Bot Settings → Owner alerts.
link-no-code = Envoyez /link suivi du code affiché dans Bot Settings → Owner alerts, par ex. /link 123456.

## Paiements et expéditions (envoyés hors conversation)
payment-paid = Paiement reçu pour la commande #{ $order }. Merci ! Votre commande est en cours de préparation pour l’expédition.
payment-expired = La commande #{ $order } a expiré : aucun paiement n’est arrivé à temps, elle a donc été annulée et ses articles remis en vente. Si vous avez déjà payé, contactez le service client.
payment-failed = Le paiement de la commande #{ $order } a échoué, la commande a donc été annulée. Si vous avez déjà payé, contactez le service client.
payment-refunded = Le paiement de la commande #{ $order } a été remboursé, la commande a donc été annulée.
payment-partly-paid = Nous avons reçu { $paid } { $coin } pour la commande #{ $order }, mais { $due } { $coin } sont dus.
payment-partly-paid-send-rest = Veuillez envoyer les { $rest } { $coin } restants à { $address } pour finaliser votre commande.
payment-partly-paid-contact = Veuillez contacter le service client pour finaliser votre commande.
payment-part-of-payment = une partie du paiement
payment-more = davantage
order-cancelled-by-shop = La commande #{ $order } a été annulée par la boutique.
order-cancelled-refund = Nous avons reçu { $paid } { $coin } pour elle, qui seront remboursés : contactez le service client avec une adresse de remboursement.
order-cancelled-no-payment = Aucun paiement n’a été pris. Pour toute question, contactez le service client.
payment-after-cancel = Nous avons reçu { $paid } { $coin } pour la commande #{ $order }, mais elle avait déjà été annulée. Contactez le service client et nous réglerons cela.
payment-a-payment = un paiement
payment-too-late = Nous avons reçu votre paiement pour la commande #{ $order }, mais elle avait déjà expiré et un de ses articles n’est plus en stock. Contactez le service client et nous réglerons cela.
checkout-abandoned = La commande #{ $order } n’a pas pu être finalisée : un problème est survenu lors de la création de son paiement, aucun paiement n’a donc été pris.
checkout-abandoned-cart-restored = Vos articles sont de retour dans votre panier : vous pouvez repasser commande.
checkout-abandoned-order-again = Ouvrez la boutique et passez votre commande à nouveau.
dispatch-title = Bonne nouvelle ! Votre commande #{ $order } a été expédiée.
dispatch-note = Message de la boutique : { $note }
dispatch-thanks = Merci pour votre achat.

## Refus et vérifications de la boutique
refusal-quantity-zero-or-more = La quantité doit être un nombre entier de 0 ou plus.
refusal-quantity-at-least-one = La quantité doit être un nombre entier d’au moins 1.
refusal-quantity-at-most = La quantité peut être au plus de { $max }.
refusal-product-gone = Ce produit n’est plus disponible.
refusal-choose-options = Veuillez d’abord choisir les options.
refusal-out-of-stock = { $name } est en rupture de stock.
refusal-only-left = Il ne reste que { $stock } de { $name }.
refusal-only-left-in-cart = Il ne reste que { $stock } de { $name }, et { $inCart } { $inCart ->
    [one] est
   *[other] sont
  } déjà dans votre panier.
cart-removed-gone = { $name } n’est plus disponible : nous l’avons retiré de votre panier.
cart-removed-sold-out = { $name } est en rupture de stock : nous l’avons retiré de votre panier.
cart-quantity-lowered = Il ne reste que { $stock } de { $name } : votre quantité est passée à { $stock }.
refusal-payments-unavailable = Les paiements ne sont pas disponibles pour le moment, les commandes ne peuvent donc pas être payées. Veuillez réessayer plus tard.
refusal-coin-not-accepted = { $coin } n’est pas accepté. Veuillez payer en { $coins }.
refusal-postage-gone = Ce mode de livraison n’est plus disponible. Veuillez en choisir un autre.
refusal-cart-empty = Votre panier est vide.
refusal-item-gone = { $name } n’est plus disponible. Veuillez vérifier votre panier.
refusal-order-too-large = Cette commande est trop importante pour être payée en une fois. Veuillez la diviser en commandes plus petites.
refusal-address = Veuillez vérifier l’adresse de livraison.
refusal-choose-coin = Veuillez choisir BTC, LTC ou XMR pour payer.
refusal-payments-not-configured = Les paiements ne sont pas encore configurés, les commandes ne peuvent donc pas être payées pour le moment. Veuillez réessayer plus tard.
refusal-payment-not-created = Le paiement n’a pas pu être créé. Votre commande a été annulée et votre panier conservé : vous pouvez réessayer.
refusal-payment-too-slow = La création de votre paiement a pris trop de temps : votre commande a été annulée et votre panier conservé. Veuillez réessayer.
refusal-too-many-unpaid-orders = Vous avez déjà { $count } commandes en attente de paiement. Payez-en une (voir Mes commandes) ou attendez qu’une expire avant de commander à nouveau.
refusal-not-enough-stock = Stock insuffisant pour { $name } : il n’en reste que { $stock }.
refusal-not-enough-stock-gone = Stock insuffisant pour { $name } : il n’est plus disponible.
refusal-order-not-found = Cette commande est introuvable.
refusal-order-not-awaiting-payment = Cette commande n’attend plus de paiement. Ouvrez Mes commandes pour voir où elle en est.
coupon-refused-unknown = Le code promo { $code } n’existe pas. Veuillez vérifier le code et réessayer.
coupon-refused-not-a-code = Ce n’est pas un code promo : les codes comptent de 3 à 32 lettres, chiffres, - ou _. Veuillez le vérifier et réessayer.
coupon-refused-expired = Le code promo { $code } a expiré.
coupon-refused-not-started = Le code promo { $code } n’est pas encore valable : il commence le { $start }.
coupon-refused-not-started-later = Le code promo { $code } n’est pas encore valable : il commence à une date ultérieure.
coupon-refused-used-up = Le code promo { $code } a été entièrement utilisé.
coupon-refused-already-used = Vous avez déjà utilisé le code promo { $code } autant de fois qu’il le permet.
coupon-refused-minimum-not-met = Le code promo { $code } demande au moins { $minimum } d’articles (hors livraison) ; les vôtres font { $items }.
coupon-refused-not-for-these-items = Le code promo { $code } ne s’applique à aucun article de votre panier.
coupon-refused-first-order-only = Le code promo { $code } est réservé à une première commande.
address-refused-name = Veuillez envoyer un nom de 2 à 100 caractères, par exemple Marie Dupont.
address-refused-street = Veuillez envoyer l’adresse (5 à 300 caractères), par exemple 12 rue de la Paix, Paris.
address-refused-postcode = Cela ne ressemble pas à un code postal. Veuillez le renvoyer, par exemple 75002.
address-refused-contact = Veuillez envoyer un contact de 3 à 100 caractères, ou appuyez sur Passer.

## Statut de la commande (Mes commandes)
order-status-underpaid-due = Paiement incomplet : { $due } { $coin } restent dus
order-status-underpaid = Paiement incomplet : veuillez envoyer le reste
order-status-confirming = Paiement reçu, en cours de confirmation
order-status-awaiting-payment = En attente de paiement
order-status-processing = Payée, en préparation pour l’expédition
order-status-dispatched = Expédiée
order-status-completed = Terminée
order-status-refunded = Remboursée
order-status-cancelled-refund-due = Annulée par la boutique : votre paiement sera remboursé
order-status-cancelled-by-shop = Annulée par la boutique
order-status-paid-too-late = Annulée : votre paiement est arrivé trop tard, veuillez contacter le support
order-status-expired = Expirée : aucun paiement reçu
order-status-payment-not-created = Annulée : le paiement n’a pas pu être créé
order-status-payment-failed = Annulée : le paiement a échoué
order-status-no-payment = Annulée : aucun paiement reçu
order-status-other = { $status }

## Où est le colis
parcel-carrier = Transporteur : { $carrier }
parcel-tracking-number = Numéro de suivi : { $number }
parcel-track-link = Suivre votre colis : { $link }
