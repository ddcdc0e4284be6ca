import { useCallback, useState, type FormEvent } from "react";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { FormAlertDialog } from "@/components/form-alert-dialog";
import { PasswordField } from "@/components/password-field";
import { ApiError, apiRequest, LOGIN_URL, loginErrorText, offerSignInAgain } from "@/lib/api";
import { useAuthStatus } from "@/lib/queries";
import { useOfferedDialog } from "./offered-dialog";

// A save that met an ended session (issue 22, item 3): the owner signs in here, over the page, so
// the open dialog and what was typed in it stay; web/lib/api.ts then sends the save again, once.
// As the account that was signed in (issue 25), with its two-factor code when it has two-factor on.

export function SignInAgainDialog() {
  const [password, setPassword] = useState("");
  const [code, setCode] = useState<string | null>(null);
  // Staff sign in again by their username; the owner by the password alone, as on the login page.
  const account = useAuthStatus().data?.account;
  const username = account && account.role !== "owner" ? account.username : undefined;
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const dialog = useOfferedDialog(
    offerSignInAgain,
    useCallback(() => {
      setPassword("");
      setCode(null);
      setError(null);
    }, []),
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError("Enter the admin password.");
      return;
    }
    setPending(true);
    try {
      await apiRequest("POST", LOGIN_URL, { ...(username ? { username } : {}), password, ...(code !== null ? { totp: code } : {}) });
      dialog.finish(true);
    } catch (failure) {
      if (code === null && failure instanceof ApiError && failure.asks.totpRequired) {
        setCode("");
        setError(null);
        return;
      }
      setError(loginErrorText(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <FormAlertDialog
      open={dialog.open}
      onOpenChange={dialog.onOpenChange}
      testId="sign-in-again"
      title="Sign in to save"
      description="Your session ended. Sign in again and your changes are saved; nothing you typed is lost."
      onSubmit={(event) => void submit(event)}
      cancelLabel="Not now"
      submitLabel="Sign in and save"
      pendingLabel="Signing in..."
      pending={pending}
    >
      {code === null ? (
        <PasswordField
          id="sign-in-again-password"
          value={password}
          onChange={(value) => {
            setPassword(value);
            setError(null);
          }}
          error={error}
          announceError
        />
      ) : (
        <TwoFactorCodeField
          id="sign-in-again-code"
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(null);
          }}
          error={error}
          announceError
        />
      )}
    </FormAlertDialog>
  );
}
