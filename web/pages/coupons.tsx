import { Plus, TicketPercent } from "lucide-react";
import { useState } from "react";
import type { Coupon } from "../../contract";
import { CouponDialog } from "@/components/coupons/coupon-dialog";
import { CouponCards, CouponTable } from "@/components/coupons/coupon-list";
import { useCoupons, useDeleteCoupon, useSwitchCoupon } from "@/components/coupons/queries";
import { LoadingRows } from "@/components/loading-rows";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { toast } from "@/hooks/use-toast";
import { describeError } from "@/lib/api";
import { DESKTOP_QUERY, useMediaQuery } from "@/lib/screen-helpers";

// Coupons (issue 23): the discount codes customers type at checkout, their uses and state; the owner
// adds, edits, switches off and deletes them.

export default function CouponsPage() {
  const couponsQuery = useCoupons();
  const switchCoupon = useSwitchCoupon();
  const deleteCoupon = useDeleteCoupon();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<Coupon | null>(null);
  // The coupon asked about stays set while the confirmation fades out, so its title keeps the code.
  const [deleting, setDeleting] = useState<Coupon | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const coupons = couponsQuery.data ?? [];

  const openCreate = () => {
    setEditing(null);
    setDialogOpen(true);
  };
  const openEdit = (coupon: Coupon) => {
    setEditing(coupon);
    setDialogOpen(true);
  };
  const onSwitch = (coupon: Coupon, isActive: boolean) => {
    switchCoupon.mutate(
      { id: coupon.id, isActive },
      {
        onSuccess: (saved) => toast({ title: saved.isActive ? `${saved.code} switched on` : `${saved.code} switched off` }),
        onError: (error) => toast({ title: "Failed to update coupon", description: describeError(error), variant: "destructive" }),
      },
    );
  };
  const askToDelete = (coupon: Coupon) => {
    setDeleting(coupon);
    setConfirmOpen(true);
  };
  const remove = (coupon: Coupon) => {
    deleteCoupon.mutate(coupon.id, {
      onSuccess: () => toast({ title: "Coupon deleted", description: coupon.code }),
      onError: (error) => toast({ title: "Failed to delete coupon", description: describeError(error), variant: "destructive" }),
    });
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Coupons</h2>
          <p className="text-muted-foreground">Discount codes customers type at checkout</p>
        </div>
        <Button onClick={openCreate}>
          <Plus />
          Add Coupon
        </Button>
      </div>

      <Card className="py-0">
        <CardContent className="p-0">
          {couponsQuery.isLoading ? (
            <LoadingRows label="Loading coupons..." />
          ) : couponsQuery.isError ? (
            <p className="text-destructive py-12 text-center">{describeError(couponsQuery.error)}</p>
          ) : coupons.length === 0 ? (
            <div className="py-12 text-center">
              <TicketPercent className="text-muted-foreground mx-auto mb-3 size-12" aria-hidden="true" />
              <p className="font-medium">No coupons yet</p>
              <p className="text-muted-foreground text-sm">Add a code customers can type at checkout for a discount</p>
            </div>
          ) : isDesktop ? (
            <CouponTable coupons={coupons} onSwitch={onSwitch} onEdit={openEdit} onDelete={askToDelete} />
          ) : (
            <CouponCards coupons={coupons} onSwitch={onSwitch} onEdit={openEdit} onDelete={askToDelete} />
          )}
        </CardContent>
      </Card>

      <CouponDialog open={dialogOpen} onOpenChange={setDialogOpen} coupon={editing} />

      <AlertDialog open={confirmOpen} onOpenChange={setConfirmOpen}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete coupon {deleting?.code}?</AlertDialogTitle>
            <AlertDialogDescription>
              Customers will no longer be able to use it. Orders placed with it keep their discount. To pause it instead, switch it off.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: "destructive" })}
              onClick={() => {
                if (deleting) remove(deleting);
              }}
            >
              Delete coupon
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
