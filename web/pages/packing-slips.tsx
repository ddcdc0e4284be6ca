import { useQueries, useQuery } from "@tanstack/react-query";
import { ArrowLeft, Printer } from "lucide-react";
import { useEffect } from "react";
import { Link, useSearchParams } from "wouter";
import { itemDisplayName, ORDER_SORTS, ORDER_STATUSES, type Order, type OrderItem, type PostageOption } from "../../contract";
import { sealedKeyId } from "../../contract/owner-seal";
import { Button } from "@/components/ui/button";
import { SealedAddressNotice, UnlockAddressesButton } from "@/components/orders/sealed-address";
import { Spinner } from "@/components/spinner";
import { describeError, getPageFn, PAGE_MARK, type ServerPage } from "@/lib/api";
import { useOwnerKeys, useShownAddress } from "@/lib/owner-keys";
import { queryKeys, usePostageOptions } from "@/lib/queries";
import { dayEndIso, dayStartIso, formatDate, formatGBP, isDay, missingAddressText, shortId } from "@/lib/screen-helpers";
import { RoleGuard } from "@/components/layout/role-guard";
import { useCan } from "@/lib/account";

// The packing slips print view (issue 13): one A4 page per order, to print and put in the parcel.
// It stands outside the app's frame (web/app.tsx), so neither the screen nor the paper shows the
// sidebar or the top bar; the toolbar is hidden when printing.

/** More than any owner packs in one go; keeps a hand-made link from asking for thousands of reads. */
const MAX_SLIPS = 200;
const ID_PATTERN = /^[0-9a-f-]{36}$/i;

/** The ids from `?ids=a,b,c`, well-formed and each once; empty means every order Ready to Dispatch. */
function idsFromSearch(text: string | null): string[] {
  const ids = (text ?? "").split(",").map((id) => id.trim().toLowerCase()).filter((id) => ID_PATTERN.test(id));
  return [...new Set(ids)].slice(0, MAX_SLIPS);
}

/**
 * `?matching=1&status=..&q=..&from=..&to=..&sort=..` ("Select all N matching" on the Orders screen,
 * issue 22): the list's filter, its days as the date inputs hold them. Anything malformed is left out,
 * as the Orders screen leaves it out; the server checks the rest.
 */
function filterFromSearch(params: URLSearchParams) {
  if (params.get("matching") !== "1") return null;
  const status = params.get("status");
  const sort = params.get("sort");
  const from = params.get("from");
  const to = params.get("to");
  return {
    status: status && ORDER_STATUSES.includes(status as Order["status"]) ? status : undefined,
    q: params.get("q") || undefined,
    sort: sort && ORDER_SORTS.includes(sort as (typeof ORDER_SORTS)[number]) ? sort : undefined,
    from: isDay(from) ? dayStartIso(from) : undefined,
    to: isDay(to) ? dayEndIso(to) : undefined,
  };
}
type SlipFilter = NonNullable<ReturnType<typeof filterFromSearch>>;

/**
 * The chosen orders, each read on its own; every order a filter matches, in one read of at most
 * MAX_SLIPS (the count of all that match comes with it, so more than that is said, not cut short);
 * or, with neither, every Ready to Dispatch order, oldest first (packed first).
 */
function useSlipOrders(ids: string[], filter: SlipFilter | null) {
  const readyQuery = useQuery<Order[]>({
    queryKey: ["/api/orders", { status: "processing", sort: "oldest" }],
    enabled: ids.length === 0 && filter === null,
  });
  const matchingQuery = useQuery<ServerPage<Order>>({
    queryKey: ["/api/orders", PAGE_MARK, { ...filter, limit: MAX_SLIPS }],
    queryFn: getPageFn<Order>(),
    enabled: filter !== null,
  });
  const chosenQueries = useQueries({
    queries: ids.map((id) => ({ queryKey: queryKeys.order(id) })),
  });
  if (filter !== null) {
    const page = matchingQuery.data;
    const tooMany = page !== undefined && page.total > MAX_SLIPS ? page.total : null;
    return { orders: tooMany === null ? (page?.rows ?? []) : [], isLoading: matchingQuery.isLoading, error: matchingQuery.error, tooMany };
  }
  if (ids.length === 0) return { orders: readyQuery.data ?? [], isLoading: readyQuery.isLoading, error: readyQuery.error, tooMany: null };
  const orders = ids
    .map((id, at) => (chosenQueries[at]?.data as Order[] | undefined)?.find((order) => order.id === id))
    .filter((order): order is Order => order !== undefined);
  return {
    orders,
    isLoading: chosenQueries.some((query) => query.isLoading),
    error: chosenQueries.find((query) => query.error)?.error ?? null,
    tooMany: null,
  };
}

/** The postage as chosen at checkout; an order from before snapshots falls back to the option as it is now. */
function postageText(order: Order, options: PostageOption[] | undefined): string {
  if (order.postageName) return `${order.postageName} (${formatGBP(order.postagePrice)})`;
  if (!order.postageOptionId) return "No Postage Method Selected (free shipping or pickup)";
  const option = options?.find((o) => o.id === order.postageOptionId);
  return option ? `${option.name} (${formatGBP(option.price)})` : "Selected Postage Method";
}

function PackingSlip({ order, items, postage }: { order: Order; items: OrderItem[] | undefined; postage: string }) {
  // A sealed address (private addresses) prints once this tab is unlocked.
  const shown = useShownAddress(order);
  const address = shown.state === "clear" || shown.state === "opened" ? shown.address : null;
  const units = (items ?? []).reduce((sum, item) => sum + item.quantity, 0);
  return (
    <article
      className="packing-slip mx-auto flex w-full max-w-[210mm] flex-col gap-6 bg-white p-8 text-black shadow-sm print:max-w-none print:p-0 print:shadow-none"
      aria-label={`Packing slip for order ${shortId(order.id)}`}
      data-testid="packing-slip"
    >
      <header className="flex items-start justify-between gap-4 border-b pb-4">
        <div>
          <h2 className="text-2xl font-bold">Packing Slip</h2>
          <p className="text-sm">Placed {formatDate(order.createdAt)}</p>
        </div>
        <div className="text-right">
          <p className="font-mono text-2xl font-bold">#{shortId(order.id)}</p>
          <p className="font-mono text-[10px] break-all" data-testid="full-order-id">
            {order.id}
          </p>
        </div>
      </header>

      <section aria-label="Ship to">
        <h3 className="mb-1 text-xs font-semibold tracking-wide uppercase">Ship to</h3>
        {address ? (
          <address className="text-lg leading-snug not-italic">
            <p className="font-semibold">{address.name}</p>
            <p className="whitespace-pre-line">{address.streetAddress}</p>
            <p className="font-semibold">{address.postcode}</p>
            {address.contact && <p className="text-sm">{address.contact}</p>}
          </address>
        ) : shown.state === "none" ? (
          <p>{missingAddressText(order)}</p>
        ) : (
          <SealedAddressNotice shown={shown} className="print:hidden" />
        )}
      </section>

      <section aria-label="Postage" className="grid gap-1 text-sm">
        <p>
          <span className="font-semibold">Postage: </span>
          {postage}
        </p>
        {(order.carrier || order.trackingNumber) && (
          <p>
            <span className="font-semibold">Shipment: </span>
            {[order.carrier, order.trackingNumber].filter(Boolean).join(" · ")}
          </p>
        )}
      </section>

      <section aria-label="Items">
        <table className="w-full border-collapse text-sm">
          <thead>
            <tr className="border-b-2 border-black text-left">
              <th className="py-2 pr-2 font-semibold">Item</th>
              <th className="w-20 py-2 text-right font-semibold">Quantity</th>
              <th className="w-16 py-2 text-right font-semibold">Packed</th>
            </tr>
          </thead>
          <tbody>
            {items === undefined ? (
              <tr>
                <td colSpan={3} className="py-2">
                  Loading items...
                </td>
              </tr>
            ) : (
              items.map((item) => (
                <tr key={item.id} className="border-b" data-testid="packing-slip-item">
                  <td className="py-2 pr-2">
                    {itemDisplayName(item.productName || `Product ${shortId(item.productId)}`, item.variantLabel)}
                    {/* The SKU as bought (issue 23), to find the variant on the shelf. */}
                    {item.sku && <span className="block font-mono text-xs break-all">SKU {item.sku}</span>}
                  </td>
                  <td className="py-2 text-right font-semibold">{item.quantity}</td>
                  {/* A box to tick by hand while packing. */}
                  <td className="py-2 text-right">
                    <span className="inline-block size-4 border border-black align-middle" aria-hidden="true" />
                  </td>
                </tr>
              ))
            )}
          </tbody>
          <tfoot>
            <tr>
              <td className="pt-2 font-semibold">Total items</td>
              <td className="pt-2 text-right font-semibold">{units}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      </section>

      <p className="mt-auto pt-6 text-center text-sm">Thank you for your order!</p>
    </article>
  );
}

/** Slips carry the addresses, for packing: the dispatch permission (contract/team.ts, issue 25). */
export default function PackingSlipsPage() {
  return (
    <RoleGuard permission="orders.dispatch">
      <PackingSlips />
    </RoleGuard>
  );
}

function PackingSlips() {
  const [params] = useSearchParams();
  const ids = idsFromSearch(params.get("ids"));
  const filter = ids.length === 0 ? filterFromSearch(params) : null;
  const { orders, isLoading, error, tooMany } = useSlipOrders(ids, filter);
  const itemQueries = useQueries({
    queries: orders.map((order) => ({ queryKey: queryKeys.orderItems(order.id) })),
  });
  // The postage list is the catalogue's: a packer's slips name the postage from the order's own snapshot.
  const postageQuery = usePostageOptions(useCan("catalogue"));
  const itemsLoading = itemQueries.some((query) => query.isLoading);
  // Sealed addresses whose key is not unlocked: the toolbar offers to unlock them all at once.
  const { keys } = useOwnerKeys();
  const anySealed = orders.some((order) => {
    const keyId = order.sealedShippingAddress ? sealedKeyId(order.sealedShippingAddress) : null;
    return keyId !== null && !keys.has(keyId);
  });

  useEffect(() => {
    const before = document.title;
    document.title = "Packing slips · Shop Admin";
    return () => {
      document.title = before;
    };
  }, []);

  const heading =
    ids.length > 0
      ? "Packing slips for the selected orders"
      : filter
        ? "Packing slips for every matching order"
        : "Packing slips for every order Ready to Dispatch";

  return (
    <div className="bg-muted/40 min-h-screen print:bg-white">
      {/* A4 paper; each slip on its own sheet. Only while this view is open. */}
      <style>{`
        @page { size: A4; margin: 14mm; }
        @media print {
          .packing-slip { break-after: page; min-height: calc(297mm - 28mm); }
          .packing-slip:last-child { break-after: auto; }
        }
      `}</style>
      <div className="bg-background sticky top-0 z-10 flex flex-wrap items-center gap-2 border-b p-4 print:hidden">
        <Button variant="outline" asChild>
          <Link href="/orders">
            <ArrowLeft />
            Back to Orders
          </Link>
        </Button>
        <div className="mr-auto">
          <h1 className="text-lg font-semibold">{heading}</h1>
          <p className="text-muted-foreground text-sm" aria-live="polite">
            {isLoading ? "Loading orders..." : `${orders.length} ${orders.length === 1 ? "slip" : "slips"}, one A4 page each`}
          </p>
        </div>
        {anySealed && <UnlockAddressesButton size="default" />}
        <Button onClick={() => window.print()} disabled={isLoading || itemsLoading || orders.length === 0}>
          <Printer />
          Print
        </Button>
      </div>

      <main className="space-y-6 p-4 sm:p-6 print:space-y-0 print:p-0">
        {isLoading ? (
          <Spinner className="py-24" label="Loading orders" />
        ) : error ? (
          <p className="text-destructive py-12 text-center">{describeError(error)}</p>
        ) : tooMany !== null ? (
          <p role="alert" className="text-destructive mx-auto max-w-xl py-12 text-center">
            {`${tooMany} orders match: packing slips print at most ${MAX_SLIPS} at once. Narrow the filter (a status or dates), then print them in parts.`}
          </p>
        ) : orders.length === 0 ? (
          <p className="text-muted-foreground py-12 text-center">
            {ids.length > 0 ? "None of the selected orders were found" : filter ? "No orders match" : "No orders are Ready to Dispatch"}
          </p>
        ) : (
          orders.map((order, at) => (
            <PackingSlip
              key={order.id}
              order={order}
              items={itemQueries[at]?.data as OrderItem[] | undefined}
              postage={postageText(order, postageQuery.data)}
            />
          ))
        )}
      </main>
    </div>
  );
}
