import { ChevronRight, Users } from "lucide-react";
import { Link } from "wouter";
import { useId } from "react";
import { type Customer, CUSTOMER_SORTS, type CustomerSort, LANGUAGE_NAMES, LANGUAGES, type Language } from "../../contract";
import { BlockedBadge, customerPath, LanguageBadge, UnreadBadge } from "@/components/customers/customer-bits";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useCustomerPage } from "@/components/customers/queries";
import { ListPager, PAGE_SIZE } from "@/components/list-pager";
import { CustomerAvatar } from "@/components/messages/conversation-list";
import { displayName } from "@/components/messages/conversations";
import { SearchBox, useListUrl, useServerPager } from "@/components/server-list";
import { Card, CardContent } from "@/components/ui/card";
import { SortSelect } from "@/components/sort-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { LoadingRows } from "@/components/loading-rows";
import { describeError } from "@/lib/api";
import { DESKTOP_QUERY, formatDate, formatGBP, useMediaQuery } from "@/lib/screen-helpers";

const DEFAULT_SORT: CustomerSort = "recent";
const isSort = (value: string | null): value is CustomerSort => CUSTOMER_SORTS.includes(value as CustomerSort);
const SORT_LABELS: Record<CustomerSort, string> = {
  recent: "Recently active",
  "last-order": "Last order",
  "total-spent": "Total spent",
};

const ALL_LANGUAGES = "all";
const isLanguage = (value: string | null): value is Language => LANGUAGES.includes(value as Language);

/** Only the customers the bot speaks one language to (issue 26); "All languages" takes it out of the URL. */
function LanguageFilter({ value, onChange }: { value: Language | null; onChange: (language: Language | null) => void }) {
  const id = useId();
  return (
    <div className="grid gap-1.5 sm:w-44">
      <Label htmlFor={id}>Language</Label>
      <Select value={value ?? ALL_LANGUAGES} onValueChange={(next) => onChange(isLanguage(next) ? next : null)}>
        <SelectTrigger id={id} className="w-full" data-testid="customer-language-filter">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL_LANGUAGES}>All languages</SelectItem>
          {LANGUAGES.map((language) => (
            <SelectItem key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** The customer's @username (else their id) and their name, linking to their page. */
function CustomerName({ customer }: { customer: Customer }) {
  return (
    <Link href={customerPath(customer)} className="flex min-w-0 items-center gap-3 hover:underline">
      <CustomerAvatar customer={customer} />
      <span className="min-w-0 [overflow-wrap:anywhere]">
        <span className="block font-medium">{displayName(customer)}</span>
        <span className="text-muted-foreground block text-xs">{customer.name ?? `ID ${customer.telegramUserId}`}</span>
      </span>
    </Link>
  );
}

function CustomerTable({ customers }: { customers: Customer[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead className="pl-4">Customer</TableHead>
          <TableHead className="text-right">Orders</TableHead>
          <TableHead className="text-right">Total spent</TableHead>
          <TableHead>Last order</TableHead>
          <TableHead>Unread</TableHead>
          <TableHead>Language</TableHead>
          <TableHead className="pr-4">Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {customers.map((customer) => (
          <TableRow key={customer.telegramUserId} data-testid="customer-row">
            <TableCell wrap className="max-w-72 min-w-48 pl-4">
              <CustomerName customer={customer} />
            </TableCell>
            <TableCell className="text-right tabular-nums" data-testid="customer-orders">
              {customer.ordersCount}
            </TableCell>
            <TableCell className="text-right font-medium tabular-nums" data-testid="customer-spent">
              {formatGBP(customer.totalSpent)}
            </TableCell>
            <TableCell>{customer.lastOrderAt ? formatDate(customer.lastOrderAt) : <span className="text-muted-foreground">Never</span>}</TableCell>
            <TableCell>
              <UnreadBadge count={customer.unreadCount} />
            </TableCell>
            <TableCell data-testid="customer-language">
              <LanguageBadge language={customer.language} />
            </TableCell>
            <TableCell className="pr-4">{customer.isBlocked ? <BlockedBadge /> : <span className="text-muted-foreground">Active</span>}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function CustomerCards({ customers }: { customers: Customer[] }) {
  return (
    <ul className="divide-y">
      {customers.map((customer) => (
        <li key={customer.telegramUserId} className="space-y-2 p-4" data-testid="customer-card">
          <div className="flex items-center justify-between gap-2">
            <CustomerName customer={customer} />
            <ChevronRight className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
          </div>
          <dl className="grid grid-cols-3 gap-2 text-sm">
            <div>
              <dt className="text-muted-foreground text-xs">Orders</dt>
              <dd className="tabular-nums" data-testid="customer-orders">
                {customer.ordersCount}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground text-xs">Total spent</dt>
              <dd className="font-medium tabular-nums" data-testid="customer-spent">
                {formatGBP(customer.totalSpent)}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground text-xs">Last order</dt>
              <dd>{customer.lastOrderAt ? formatDate(customer.lastOrderAt) : "Never"}</dd>
            </div>
          </dl>
          {(customer.unreadCount > 0 || customer.isBlocked || customer.language) && (
            <div className="flex flex-wrap gap-2" data-testid="customer-language">
              {customer.language && <LanguageBadge language={customer.language} />}
              {customer.unreadCount > 0 && <UnreadBadge count={customer.unreadCount} />}
              {customer.isBlocked && <BlockedBadge />}
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

export default function CustomersPage() {
  // The search, the sort and the page live in the URL, as on the Orders screen.
  const url = useListUrl();
  const q = url.params.get("q") ?? "";
  const sortParam = url.params.get("sort");
  const sort: CustomerSort = isSort(sortParam) ? sortParam : DEFAULT_SORT;
  const languageParam = url.params.get("language");
  const language = isLanguage(languageParam) ? languageParam : null;
  const customersQuery = useCustomerPage({
    limit: PAGE_SIZE,
    q: q || undefined,
    sort: sort === DEFAULT_SORT ? undefined : sort,
    language: language ?? undefined,
    cursor: url.position.cursor ?? undefined,
  });
  const paged = useServerPager({ url, query: customersQuery, resetKey: `${q}|${sort}|${language ?? ""}`, pageSize: PAGE_SIZE });
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const customers = customersQuery.data?.rows ?? [];

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Customers</h2>
          <p className="text-muted-foreground">Everyone who ordered or wrote to your bot</p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <SearchBox
            query={q}
            onSearch={(text) => url.setFilter({ q: text })}
            label="Search customers"
            placeholder="Search customers..."
            title="The start of a @username, a whole name or one word of it, or a whole Telegram ID"
            className="w-full sm:w-auto"
            inputClassName="w-full sm:w-60"
          />
          <SortSelect
            className="grid gap-1.5 sm:w-48"
            value={sort}
            options={CUSTOMER_SORTS}
            labels={SORT_LABELS}
            defaultValue={DEFAULT_SORT}
            onChange={(next) => url.setFilter({ sort: next })}
          />
          <LanguageFilter value={language} onChange={(next) => url.setFilter({ language: next })} />
        </div>
      </div>

      <Card className="gap-0 py-0">
        <CardContent className="p-0">
          {customersQuery.isLoading ? (
            <LoadingRows label="Loading customers..." />
          ) : customersQuery.isError ? (
            <p className="text-destructive py-12 text-center">{describeError(customersQuery.error)}</p>
          ) : customers.length === 0 ? (
            <div className="py-12 text-center">
              <Users className="text-muted-foreground mx-auto mb-3 size-12" aria-hidden="true" />
              <p className="font-medium">No customers found</p>
              <p className="text-muted-foreground text-sm">
                {q || language ? "Try another search" : "Customers appear here once they order or write to your bot"}
              </p>
            </div>
          ) : isDesktop ? (
            <CustomerTable customers={customers} />
          ) : (
            <CustomerCards customers={customers} />
          )}
        </CardContent>
      </Card>
      <ListPager paged={paged} label="customers" />
    </div>
  );
}
