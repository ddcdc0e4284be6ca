import { useEffect, useState } from "react";
import type { StorefrontCheckout, StorefrontOrder } from "../../../contract/storefront";
import { formatMoney } from "../cart";
import { useStorefront } from "../context";
import { QrCode } from "../qr";
import { haptic } from "../telegram";
import { Card, CopyButton, PrimaryAction, ScreenTitle, Spinner, usePolling } from "../ui";

// What to pay and where: the amount and the address, each with Copy, a QR code of the wallet link,
// the time left, and a plain link to the wallet or the gateway's page (a link, not window.open:
// Android's webviews block that). The order is asked for every few seconds until it is paid or failed.

const POLL_MS = 3_000;

/** Links the page may follow: wallets' own schemes and web pages; anything else (javascript:, data:) is not a link. */
const SAFE_LINK = /^(bitcoin|litecoin|monero|https?):/i;

type Outcome = "waiting" | "paid" | "failed";

function outcomeOf(order: StorefrontOrder): Outcome {
  if (order.status === "pending") return "waiting";
  return order.status === "failed" ? "failed" : "paid";
}

function timeLeft(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

export function PaymentScreen({ checkout }: { checkout: StorefrontCheckout }) {
  const { api, texts, reset } = useStorefront();
  const [order, setOrder] = useState(checkout.order);
  const [now, setNow] = useState(() => Date.now());
  const outcome = outcomeOf(order);
  const payment = order.payment ?? checkout.payment;
  const expiresAt = payment.expiresAt ? Date.parse(payment.expiresAt) : null;
  const expired = outcome === "waiting" && expiresAt !== null && now >= expiresAt;

  usePolling(
    async () => {
      try {
        setOrder(await api.order(order.id));
      } catch {
        // a dropped connection: the next poll tries again
      }
    },
    POLL_MS,
    outcome === "waiting",
  );

  useEffect(() => {
    if (outcome === "paid") haptic.success();
    if (outcome === "failed") haptic.error();
  }, [outcome]);

  useEffect(() => {
    if (outcome !== "waiting" || expiresAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [outcome, expiresAt]);

  const link = payment.checkoutUrl ?? payment.uri;
  const safeLink = link && SAFE_LINK.test(link) ? link : null;
  const isWebPage = safeLink !== null && /^https?:/i.test(safeLink);

  return (
    <>
      <ScreenTitle>{texts.paymentTitle}</ScreenTitle>
      <p className="mb-3 text-sm text-muted-foreground">
        {texts.orderReference(order.reference)} · {formatMoney(order.total)}
      </p>

      <div role="status" aria-live="polite" className="mb-4" data-testid="payment-status">
        {outcome === "paid" && (
          <Card className="border-primary">
            <p className="text-lg font-semibold">{texts.paid}</p>
            <p className="text-sm text-muted-foreground">{texts.paidBody}</p>
            <p className="mt-1 text-sm">{order.statusText}</p>
          </Card>
        )}
        {outcome === "failed" && (
          <Card>
            <p className="text-lg font-semibold text-destructive">{texts.failed}</p>
            <p className="text-sm text-muted-foreground">{texts.failedBody}</p>
          </Card>
        )}
        {outcome === "waiting" &&
          (expired ? (
            <p className="text-destructive">{texts.expired}</p>
          ) : (
            <p className="flex items-center gap-2">
              <Spinner />
              {texts.waiting}
            </p>
          ))}
      </div>

      {outcome === "waiting" && (
        <Card className="grid gap-4">
          <div>
            <p className="text-sm text-muted-foreground">{texts.sendExactly}</p>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-mono text-lg font-semibold break-all" data-testid="payment-amount">
                {payment.amount} {payment.coin}
              </p>
              <CopyButton text={payment.amount} label={texts.copyAmount} />
            </div>
          </div>
          <div>
            <p className="text-sm text-muted-foreground">{texts.toAddress}</p>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="min-w-0 flex-1 font-mono text-sm break-all" data-testid="payment-address">
                {payment.address}
              </p>
              <CopyButton text={payment.address} label={texts.copyAddress} />
            </div>
          </div>
          <QrCode value={payment.uri ?? payment.address} label={texts.qrLabel(payment.coin)} />
          {expiresAt !== null && !expired && (
            <p className="text-center text-sm tabular-nums" data-testid="payment-countdown">
              {texts.expiresIn(timeLeft(expiresAt - now))}
            </p>
          )}
          {safeLink && (
            <a
              href={safeLink}
              {...(isWebPage ? { target: "_blank", rel: "noopener noreferrer" } : {})}
              className="inline-flex min-h-11 items-center justify-center rounded-md border border-input px-4 font-medium text-link underline-offset-4 hover:underline"
            >
              {payment.checkoutUrl ? texts.openCheckout : texts.openWallet}
            </a>
          )}
        </Card>
      )}

      {outcome !== "waiting" && <PrimaryAction text={texts.viewOrders} onClick={() => reset({ name: "orders" })} />}
      {outcome === "waiting" && expired && <PrimaryAction text={texts.backToShop} onClick={() => reset({ name: "catalogue" })} />}
    </>
  );
}
