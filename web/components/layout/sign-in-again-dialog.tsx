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
import { PasswordField } from "@/components/password-field";
import { Button } from "@/components/ui/button";
import { apiRequest, LOGIN_URL, loginErrorText, offerSignInAgain } from "@/lib/api";

// A save that met an ended session (issue 22, item 3): the owner signs in here, over the page, so
// the open dialog and what was typed in it stay; web/lib/api.ts then sends the save again, once.

export function SignInAgainDialog() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
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
      await apiRequest("POST", LOGIN_URL, { password });
      finish(true);
    } catch (failure) {
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
