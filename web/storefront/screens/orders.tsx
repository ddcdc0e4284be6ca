import { useState } from "react";
import type { StorefrontOrder } from "../../../contract/storefront";
import { formatMoney } from "../cart";
import { useStorefront } from "../context";
import { Button, Card, Loading, Problem, ScreenTitle, usePolling } from "../ui";

// My Orders: the customer's orders, newest first, each with its status in their words, its items,
// its total and, once dispatched, the tracking number with the carrier's tracking link. An order
// still waiting for its payment opens its payment screen again.

const REFRESH_MS = 15_000;

/** Only web pages are linked (a tracking URL is the shop's, but it is still a value from elsewhere). */
const WEB_PAGE = /^https?:\/\//i;

export function OrdersScreen() {
  const { api, texts, open, catalogue } = useStorefront();
  const [orders, setOrders] = useState<StorefrontOrder[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const dates = new Intl.DateTimeFormat(catalogue.language, { dateStyle: "medium", timeStyle: "short" });

  const load = async () => {
    try {
      setOrders((await api.orders()).orders);
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : texts.loadFailed);
    }
  };
  usePolling(load, REFRESH_MS);

  return (
    <>
      <ScreenTitle>{texts.ordersTitle}</ScreenTitle>
      {problem && <Problem message={problem} onRetry={() => void load()} />}
      {!orders ? (
        !problem && <Loading />
      ) : orders.length === 0 ? (
        <p className="py-6 text-center text-muted-foreground">{texts.noOrders}</p>
      ) : (
        <ul className="grid gap-3" aria-label={texts.ordersTitle}>
          {orders.map((order) => (
            <li key={order.id}>
              <Card aria-label={texts.orderReference(order.reference)} data-testid="storefront-order">
                <div className="flex items-baseline justify-between gap-2">
                  <h2 className="font-semibold">{texts.orderReference(order.reference)}</h2>
                  <span className="font-semibold tabular-nums">{formatMoney(order.total)}</span>
                </div>
                <p className="text-sm text-muted-foreground">{texts.placedOn(dates.format(new Date(order.createdAt)))}</p>
                <p className="mt-1 text-sm font-medium" data-testid="order-status">
                  {order.statusText}
                </p>
                <ul className="mt-2 text-sm">
                  {order.items.map((item, index) => (
                    <li key={index} className="flex justify-between gap-2">
                      <span className="break-words">{texts.quantityTimes(item.quantity, item.name)}</span>
                      <span className="shrink-0 text-muted-foreground tabular-nums">{texts.each(formatMoney(item.price))}</span>
                    </li>
                  ))}
                </ul>
                {order.trackingNumber && (
                  <p className="mt-2 text-sm">
                    {texts.tracking(order.carrier, order.trackingNumber)}
                    {order.trackingUrl && WEB_PAGE.test(order.trackingUrl) && (
                      <>
                        {" · "}
                        <a href={order.trackingUrl} target="_blank" rel="noopener noreferrer" className="text-link underline">
                          {texts.trackParcel}
                        </a>
                      </>
                    )}
                  </p>
                )}
                {order.payment && (
                  <Button variant="primary" className="mt-3 w-full" onClick={() => open({ name: "payment", checkout: { order, payment: order.payment! } })}>
                    {texts.payNow}
                  </Button>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
