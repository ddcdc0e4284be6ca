import { Fragment } from "react";
import { COUPON_STATE_LABELS, type Coupon, type CouponState } from "../../../contract";
import { EditDeleteActions } from "@/components/edit-delete-actions";
import { Badge } from "@/components/ui/badge";
import { Switch } from "@/components/ui/switch";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { conditionParts, discountText, heldText, usesText, validityParts } from "./coupon-words";

type ListProps = {
  coupons: Coupon[];
  onSwitch: (coupon: Coupon, isActive: boolean) => void;
  onEdit: (coupon: Coupon) => void;
  onDelete: (coupon: Coupon) => void;
};

// Solid colours with white text (as the postage badge): readable in the light and the dark theme.
const STATE_STYLES: Record<CouponState, string> = {
  active: "border-transparent bg-green-700 text-white",
  scheduled: "border-transparent bg-blue-700 text-white",
  expired: "",
  "used-up": "",
  off: "",
};
const STATE_VARIANTS: Record<CouponState, "default" | "secondary" | "outline"> = {
  active: "default",
  scheduled: "default",
  expired: "secondary",
  "used-up": "secondary",
  off: "outline",
};

function StateBadge({ coupon }: { coupon: Coupon }) {
  return (
    <Badge variant={STATE_VARIANTS[coupon.state]} className={STATE_STYLES[coupon.state]} data-testid="coupon-state">
      {COUPON_STATE_LABELS[coupon.state]}
    </Badge>
  );
}

/** The owner's switch: on means the code may be used (within its dates and limits). */
function ActiveSwitch({ coupon, onSwitch }: { coupon: Coupon; onSwitch: ListProps["onSwitch"] }) {
  return <Switch checked={coupon.isActive} onCheckedChange={(checked) => onSwitch(coupon, checked)} aria-label={`${coupon.code} active`} />;
}

function Conditions({ coupon }: { coupon: Coupon }) {
  const parts = conditionParts(coupon);
  return parts.length === 0 ? <span className="text-muted-foreground">None</span> : <>{parts.join(" · ")}</>;
}

function Uses({ coupon }: { coupon: Coupon }) {
  const held = heldText(coupon);
  return (
    <>
      {usesText(coupon)}
      {held && <span className="text-muted-foreground"> {held}</span>}
    </>
  );
}

function Validity({ coupon }: { coupon: Coupon }) {
  return (
    <>
      {validityParts(coupon).map((part, index) => (
        <Fragment key={index}>
          {index > 0 && " "}
          <span className="whitespace-nowrap">{part}</span>
        </Fragment>
      ))}
    </>
  );
}

function Actions({ coupon, onEdit, onDelete }: { coupon: Coupon } & Pick<ListProps, "onEdit" | "onDelete">) {
  return <EditDeleteActions name={coupon.code} onEdit={() => onEdit(coupon)} onDelete={() => onDelete(coupon)} />;
}

export function CouponTable({ coupons, onSwitch, onEdit, onDelete }: ListProps) {
  return (
    <Table scrollLabel="Coupons">
      <TableHeader>
        <TableRow>
          <TableHead className="pl-4">Code</TableHead>
          <TableHead>Discount</TableHead>
          <TableHead>Conditions</TableHead>
          <TableHead>Uses</TableHead>
          <TableHead>Valid</TableHead>
          <TableHead>State</TableHead>
          <TableHead>On</TableHead>
          <TableHead className="pr-4 text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {coupons.map((coupon) => (
          <TableRow key={coupon.id} data-testid="coupon-row">
            <TableCell className="pl-4 font-mono font-medium">{coupon.code}</TableCell>
            <TableCell>{discountText(coupon)}</TableCell>
            <TableCell wrap className="max-w-56">
              <Conditions coupon={coupon} />
            </TableCell>
            <TableCell className="tabular-nums">
              <Uses coupon={coupon} />
            </TableCell>
            <TableCell wrap className="min-w-40 tabular-nums">
              <Validity coupon={coupon} />
            </TableCell>
            <TableCell>
              <StateBadge coupon={coupon} />
            </TableCell>
            <TableCell>
              <ActiveSwitch coupon={coupon} onSwitch={onSwitch} />
            </TableCell>
            <TableCell className="pr-4">
              <Actions coupon={coupon} onEdit={onEdit} onDelete={onDelete} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function CouponCards({ coupons, onSwitch, onEdit, onDelete }: ListProps) {
  return (
    <ul className="divide-y">
      {coupons.map((coupon) => (
        <li key={coupon.id} className="space-y-2 p-4" data-testid="coupon-card">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0 flex-1 space-y-1">
              <div className="flex flex-wrap items-center gap-2">
                <p className="font-mono font-medium [overflow-wrap:anywhere]">{coupon.code}</p>
                <StateBadge coupon={coupon} />
              </div>
              <p className="text-sm font-medium">{discountText(coupon)}</p>
            </div>
            <Actions coupon={coupon} onEdit={onEdit} onDelete={onDelete} />
          </div>
          <dl className="text-muted-foreground grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt>Conditions</dt>
            <dd className="text-foreground [overflow-wrap:anywhere]">
              <Conditions coupon={coupon} />
            </dd>
            <dt>Uses</dt>
            <dd className="text-foreground tabular-nums">
              <Uses coupon={coupon} />
            </dd>
            <dt>Valid</dt>
            <dd className="text-foreground tabular-nums">
              <Validity coupon={coupon} />
            </dd>
          </dl>
          <div className="flex items-center gap-2 text-sm">
            <ActiveSwitch coupon={coupon} onSwitch={onSwitch} />
            <span aria-hidden="true">{coupon.isActive ? "On" : "Off"}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}
