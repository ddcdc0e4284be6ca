import { useEffect, useRef, useState, type FormEvent } from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { Button } from "@/components/ui/button";
import { apiRequest, describeError, offerStepUp, STEP_UP_URL } from "@/lib/api";

// A sensitive action (payment keys, staff, the orders export) met 403 `stepUpRequired` (issue 25): the
// person confirms a fresh two-factor code here, over the page, and web/lib/api.ts sends the action
// again, once. Mounted once in the signed-in app; several calls refused together share one dialog.

export function StepUpDialog() {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const answer = useRef<((confirmed: boolean) => void) | null>(null);

  useEffect(
    () =>
      offerStepUp(
        () =>
          new Promise<boolean>((resolve) => {
            answer.current = resolve;
            setCode("");
            setError(null);
            setOpen(true);
          }),
      ),
    [],
  );

  const finish = (confirmed: boolean) => {
    setOpen(false);
    answer.current?.(confirmed);
    answer.current = null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError("Enter the code from your authenticator app.");
      return;
    }
    setPending(true);
    try {
      await apiRequest("POST", STEP_UP_URL, { code });
      finish(true);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && finish(false)}>
      <AlertDialogContent data-testid="step-up">
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
          <AlertDialogHeader>
            <AlertDialogTitle>Confirm it is you</AlertDialogTitle>
            <AlertDialogDescription>
              This changes something sensitive. Enter the code your authenticator app shows now (or a recovery code); you will not be
              asked again for 5 minutes.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <TwoFactorCodeField
            id="step-up-code"
            value={code}
            onChange={(value) => {
              setCode(value);
              setError(null);
            }}
            error={error}
            announceError
          />
          <AlertDialogFooter>
            <AlertDialogCancel type="button">Cancel</AlertDialogCancel>
            <Button type="submit" disabled={pending}>
              {pending ? "Checking..." : "Confirm"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
