import { LockKeyhole } from "lucide-react";
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
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
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
          <div className="grid gap-2">
            <Label htmlFor="sign-in-again-password">Password</Label>
            <div className="relative">
              <LockKeyhole className="text-muted-foreground absolute top-1/2 left-3 size-4 -translate-y-1/2" aria-hidden="true" />
              <Input
                id="sign-in-again-password"
                type="password"
                autoComplete="current-password"
                className="pl-9"
                autoFocus
                value={password}
                onChange={(event) => {
                  setPassword(event.target.value);
                  setError(null);
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? "sign-in-again-error" : undefined}
              />
            </div>
            {error && (
              <p id="sign-in-again-error" className="text-destructive text-sm" role="alert">
                {error}
              </p>
            )}
          </div>
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
