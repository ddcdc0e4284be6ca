import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ScrollText } from "lucide-react";
import { Link } from "wouter";
import { type AuditEntry, readableAuditSummary } from "../../contract";
import { ListPager, PAGE_SIZE } from "@/components/list-pager";
import { describeAuditAction } from "@/components/orders/order-history";
import { useListUrl, useServerPager } from "@/components/server-list";
import { useStaff } from "@/components/staff/queries";
import { Card, CardContent } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { LoadingRows } from "@/components/loading-rows";
import { describeError, getPageFn, PAGE_MARK, type ServerPage } from "@/lib/api";
import { useAuthStatus } from "@/lib/queries";
import { DESKTOP_QUERY, formatDateTime, shortId, useMediaQuery } from "@/lib/screen-helpers";

// The Activity screen (issue 13, item 6): who changed what, and when, from the audit log. Newest
// first, a page at a time, optionally about one kind of thing, or by one account (issue 25: the
// owner picks from the Staff list; an entry names its account by the username it had then).

const TARGET_FILTERS: { value: string; label: string }[] = [
  { value: "all", label: "Everything" },
  { value: "order", label: "Orders" },
  { value: "product", label: "Products" },
  { value: "category", label: "Categories" },
  { value: "postage", label: "Postage" },
  { value: "coupon", label: "Coupons" },
  { value: "message", label: "Messages" },
  { value: "customer", label: "Customers" },
  { value: "settings", label: "Bot settings" },
  { value: "image", label: "Images" },
  { value: "staff", label: "Staff" },
];

/** What a target is called; the entry's summary names which one ("Product "Tee": ..."). */
const TARGET_WORDS: Record<string, string> = {
  product: "Product",
  category: "Category",
  postage: "Postage option",
  coupon: "Coupon",
  message: "Message",
  settings: "Bot settings",
  image: "Image",
  broadcasts: "Broadcast",
  staff: "Staff account",
  session: "Session",
};

/** Where a target can be looked at: an order in the Orders search, a customer on their page; other targets by what they are, not their id. */
function TargetCell({ entry }: { entry: AuditEntry }) {
  const { targetType, targetId } = entry;
  if (!targetType) return <span className="text-muted-foreground">—</span>;
  if (!targetId) return <span className="capitalize">{targetType}</span>;
  if (targetType === "order") {
    return (
      <Link href={`/orders?q=${encodeURIComponent(targetId)}`} className="underline-offset-4 hover:underline">
        Order #{shortId(targetId)}
      </Link>
    );
  }
  if (targetType === "customer") {
    return (
      <Link href={`/customers/${encodeURIComponent(targetId)}`} className="underline-offset-4 hover:underline">
        Customer {targetId}
      </Link>
    );
  }
  return <span title={targetId}>{TARGET_WORDS[targetType] ?? <span className="capitalize">{targetType}</span>}</span>;
}

/** Who acted: the account's username when the entry was written ("—" for entries from before accounts). */
function WhoCell({ entry }: { entry: AuditEntry }) {
  return entry.accountUsername ? (
    <span className="font-mono text-xs" data-testid="activity-who">
      {entry.accountUsername}
    </span>
  ) : (
    <span className="text-muted-foreground">—</span>
  );
}

export default function ActivityPage() {
  const url = useListUrl();
  // The accounts to filter by: the Staff list, which only the owner may read.
  const isOwner = useAuthStatus().data?.account?.role === "owner";
  const staff = useStaff(isOwner);
  const accounts = staff.data ?? [];
  const accountParam = url.params.get("account");
  const accountId = accountParam && accounts.some((account) => account.id === accountParam) ? accountParam : "everyone";
  const typeParam = url.params.get("type");
  const targetType = TARGET_FILTERS.some((filter) => filter.value === typeParam) ? typeParam! : "all";
  // Sign-ins (and sign-outs, and failed ones) would bury the changes: shown only when asked for.
  const showSignIns = url.params.get("signins") === "shown";
  const params = {
    limit: PAGE_SIZE,
    targetType: targetType === "all" ? undefined : targetType,
    accountId: accountId === "everyone" ? undefined : accountId,
    cursor: url.position.cursor ?? undefined,
    signIns: showSignIns ? undefined : "false",
  };
  // Read afresh each time the screen opens: the log grows with every write, on any screen.
  const activity = useQuery<ServerPage<AuditEntry>>({
    queryKey: ["/api/audit-log", PAGE_MARK, params],
    queryFn: getPageFn<AuditEntry>(),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const paged = useServerPager({ url, query: activity, resetKey: `${targetType} ${showSignIns} ${accountId}`, pageSize: PAGE_SIZE });
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const entries = activity.data?.rows ?? [];

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Activity</h2>
          <p className="text-muted-foreground">Every change made in this back office, and every login</p>
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <div className="flex items-center gap-2">
            <Switch
              id="show-sign-ins"
              checked={showSignIns}
              onCheckedChange={(checked) => url.setFilter({ signins: checked ? "shown" : null })}
            />
            <Label htmlFor="show-sign-ins">Show sign-ins</Label>
          </div>
          {accounts.length > 1 && (
            <Select value={accountId} onValueChange={(value) => url.setFilter({ account: value === "everyone" ? null : value })}>
              <SelectTrigger className="w-48" aria-label="Show activity by">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="everyone">Everyone</SelectItem>
                {accounts.map((account) => (
                  <SelectItem key={account.id} value={account.id}>
                    {account.name} ({account.username})
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
          <Select value={targetType} onValueChange={(value) => url.setFilter({ type: value === "all" ? null : value })}>
            <SelectTrigger className="w-44" aria-label="Show activity about">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {TARGET_FILTERS.map((filter) => (
                <SelectItem key={filter.value} value={filter.value}>
                  {filter.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>

      <Card className="gap-0 py-0">
        <CardContent className="p-0">
          {activity.isLoading ? (
            <LoadingRows label="Loading activity..." />
          ) : activity.isError ? (
            <p className="text-destructive py-12 text-center">{describeError(activity.error)}</p>
          ) : entries.length === 0 ? (
            <div className="py-12 text-center">
              <ScrollText className="text-muted-foreground mx-auto mb-3 size-12" aria-hidden="true" />
              <p className="font-medium">No activity yet</p>
              <p className="text-muted-foreground text-sm">Changes and logins will appear here</p>
            </div>
          ) : isDesktop ? (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead className="w-44">Time</TableHead>
                  <TableHead className="w-32">Who</TableHead>
                  <TableHead className="w-52">Action</TableHead>
                  <TableHead className="w-48">Target</TableHead>
                  <TableHead>Summary</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {entries.map((entry) => (
                  <TableRow key={entry.id} data-testid="activity-entry">
                    <TableCell className="text-muted-foreground align-top">
                      <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                    </TableCell>
                    <TableCell className="align-top">
                      <WhoCell entry={entry} />
                    </TableCell>
                    <TableCell className="align-top font-medium" title={entry.action}>
                      {describeAuditAction(entry.action)}
                    </TableCell>
                    <TableCell wrap className="align-top">
                      <TargetCell entry={entry} />
                    </TableCell>
                    <TableCell wrap className="text-muted-foreground align-top" data-testid="activity-summary">
                      {readableAuditSummary(entry.summary)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <ol className="divide-y">
              {entries.map((entry) => (
                <li key={entry.id} className="space-y-1 p-4 text-sm" data-testid="activity-entry">
                  <div className="flex items-baseline justify-between gap-3">
                    <p className="font-medium">{describeAuditAction(entry.action)}</p>
                    <time dateTime={entry.createdAt} className="text-muted-foreground shrink-0 text-xs">
                      {formatDateTime(entry.createdAt)}
                    </time>
                  </div>
                  <div className="flex flex-wrap items-baseline gap-x-2">
                    <TargetCell entry={entry} />
                    {entry.accountUsername && (
                      <span className="text-muted-foreground text-xs">
                        by <WhoCell entry={entry} />
                      </span>
                    )}
                  </div>
                  {entry.summary && (
                    <p className="text-muted-foreground [overflow-wrap:anywhere]" data-testid="activity-summary">
                      {readableAuditSummary(entry.summary)}
                    </p>
                  )}
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
      <ListPager paged={paged} label="entries" />
    </div>
  );
}
