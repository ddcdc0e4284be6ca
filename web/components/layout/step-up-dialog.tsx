import { useCallback, useState, type FormEvent } from "react";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { FormAlertDialog } from "@/components/form-alert-dialog";
import { apiRequest, describeError, offerStepUp, STEP_UP_URL } from "@/lib/api";
import { useOfferedDialog } from "./offered-dialog";

// A sensitive action (payment keys, staff, the orders export) met 403 `stepUpRequired` (issue 25): the
// person confirms a fresh two-factor code here, over the page, and web/lib/api.ts sends the action
// again, once (web/components/layout/offered-dialog.ts).

export function StepUpDialog() {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const dialog = useOfferedDialog(
    offerStepUp,
    useCallback(() => {
      setCode("");
      setError(null);
    }, []),
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError("Enter the code from your authenticator app.");
      return;
    }
    setPending(true);
    try {
      await apiRequest("POST", STEP_UP_URL, { code });
      dialog.finish(true);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <FormAlertDialog
      open={dialog.open}
      onOpenChange={dialog.onOpenChange}
      testId="step-up"
      title="Confirm it is you"
      description="This changes something sensitive. Enter the code your authenticator app shows now (or a recovery code); you will not be asked again for 5 minutes."
      onSubmit={(event) => void submit(event)}
      cancelLabel="Cancel"
      submitLabel="Confirm"
      pendingLabel="Checking..."
      pending={pending}
    >
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
    </FormAlertDialog>
  );
}
