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
import { PasswordField } from "@/components/password-field";
import { Button } from "@/components/ui/button";
import { ApiError, apiRequest, LOGIN_URL, loginErrorText, offerSignInAgain } from "@/lib/api";
import { useAuthStatus } from "@/lib/queries";

// A save that met an ended session (issue 22, item 3): the owner signs in here, over the page, so
// the open dialog and what was typed in it stay; web/lib/api.ts then sends the save again, once.
// As the account that was signed in (issue 25), with its two-factor code when it has two-factor on.

export function SignInAgainDialog() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState<string | null>(null);
  // Staff sign in again by their username; the owner by the password alone, as on the login page.
  const account = useAuthStatus().data?.account;
  const username = account && account.role !== "owner" ? account.username : undefined;
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const answer = useRef<((signedIn: boolean) => void) | null>(null);

  useEffect(
    () =>
      offerSignInAgain(
        () =>
          new Promise<boolean>((resolve) => {
            answer.current = resolve;
            setPassword("");
            setCode(null);
            setError(null);
            setOpen(true);
          }),
      ),
    [],
  );

  const finish = (signedIn: boolean) => {
    setOpen(false);
    answer.current?.(signedIn);
    answer.current = null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError("Enter the admin password.");
      return;
    }
    setPending(true);
    try {
      await apiRequest("POST", LOGIN_URL, { ...(username ? { username } : {}), password, ...(code !== null ? { totp: code } : {}) });
      finish(true);
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
    <AlertDialog open={open} onOpenChange={(next) => !next && finish(false)}>
      <AlertDialogContent data-testid="sign-in-again">
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
          <AlertDialogHeader>
            <AlertDialogTitle>Sign in to save</AlertDialogTitle>
            <AlertDialogDescription>
              Your session ended. Sign in again and your changes are saved; nothing you typed is lost.
            </AlertDialogDescription>
          </AlertDialogHeader>
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
          <AlertDialogFooter>
            <AlertDialogCancel type="button">Not now</AlertDialogCancel>
            <Button type="submit" disabled={pending}>
              {pending ? "Signing in..." : "Sign in and save"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
