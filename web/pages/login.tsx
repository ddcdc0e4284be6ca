import { Bot, UserRound } from "lucide-react";
import { lazy, Suspense, useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PasswordField } from "@/components/password-field";
import { toast } from "@/hooks/use-toast";
import { ApiError, loginErrorText, takeSessionEnded } from "@/lib/api";
import { useLogin } from "@/lib/queries";

// Kept free of the form and schema libraries: this screen is in the first chunk every visitor loads.
// The code step's field loads when an account asks for it (most sign-ins never do).
const TwoFactorCodeField = lazy(() => import("@/components/account/two-factor-code-field").then((module) => ({ default: module.TwoFactorCodeField })));
//
// Two steps (issue 25): the username (staff; the owner leaves it empty) and the password; then, when
// the account has two-factor on, the server answers 401 `totpRequired` and the second step asks for
// the code. The password is kept in memory for that step only, and sent again with the code: the
// server opens no session on a password alone.
export default function LoginPage() {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [step, setStep] = useState<"password" | "code">("password");
  // Why the last try failed, shown under the field and tied to it (issue 22, item 12); cleared on typing.
  const [error, setError] = useState<string | null>(null);
  const login = useLogin();

  useEffect(() => {
    document.title = "Login · Shop Admin";
    // A 401 under a signed-in screen brought us here; after logging in, that screen shows again.
    if (takeSessionEnded()) {
      toast({ title: "Your session ended", description: "Log in again to carry on where you were.", variant: "destructive" });
    }
  }, []);

  const failed = (failure: unknown) => {
    setError(loginErrorText(failure));
    toast(
      failure instanceof ApiError
        ? { title: "Login failed", description: loginErrorText(failure), variant: "destructive" }
        : { title: "Error", description: loginErrorText(failure), variant: "destructive" },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return;
    if (step === "code" && !code.trim()) {
      setError("Enter the code from your authenticator app.");
      return;
    }
    login.mutate(
      { ...(username.trim() ? { username: username.trim() } : {}), password, ...(step === "code" ? { totp: code } : {}) },
      {
        onSuccess: () => toast({ title: "Login successful!" }),
        onError: (failure) => {
          // The password was right; the account asks for its second factor: not a failure to show.
          if (step === "password" && failure instanceof ApiError && failure.status === 401 && failure.asks.totpRequired) {
            setError(null);
            setCode("");
            setStep("code");
            return;
          }
          failed(failure);
        },
      },
    );
  };

  const back = () => {
    setStep("password");
    setCode("");
    setPassword("");
    setError(null);
  };

  return (
    <div className="bg-muted/40 flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-sm">
        <CardHeader className="justify-items-center text-center">
          <div className="bg-primary text-primary-foreground mb-2 flex size-12 items-center justify-center rounded-xl">
            <Bot className="size-6" />
          </div>
          <CardTitle className="text-xl">Admin Dashboard</CardTitle>
          <CardDescription>
            {step === "password" ? "Enter the admin password to manage your shop" : "Open your authenticator app and enter the code it shows for this shop"}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} className="grid gap-4" noValidate={step === "code"}>
            {step === "password" ? (
              <>
                <div className="grid gap-2">
                  <Label htmlFor="username">Username (staff)</Label>
                  <div className="relative">
                    <UserRound className="text-muted-foreground absolute top-1/2 left-3 size-4 -translate-y-1/2" aria-hidden="true" />
                    <Input
                      id="username"
                      type="text"
                      autoComplete="username"
                      autoCapitalize="off"
                      autoCorrect="off"
                      spellCheck={false}
                      maxLength={64}
                      className="pl-9"
                      aria-describedby="username-hint"
                      value={username}
                      onChange={(event) => {
                        setUsername(event.target.value);
                        setError(null);
                      }}
                    />
                  </div>
                  <p id="username-hint" className="text-muted-foreground text-xs">
                    The shop's owner can leave this empty.
                  </p>
                </div>
                <PasswordField
                  id="password"
                  placeholder="Enter admin password"
                  required
                  value={password}
                  onChange={(value) => {
                    setPassword(value);
                    setError(null);
                  }}
                  error={error}
                />
              </>
            ) : (
              <Suspense fallback={<p className="text-muted-foreground text-sm">Loading...</p>}>
                <TwoFactorCodeField
                  id="totp"
                  value={code}
                  onChange={(value) => {
                    setCode(value);
                    setError(null);
                  }}
                  error={error}
                />
              </Suspense>
            )}
            <Button type="submit" className="w-full" disabled={login.isPending}>
              {login.isPending ? "Logging in..." : "Access Dashboard"}
            </Button>
            {step === "code" && (
              <Button type="button" variant="ghost" className="w-full" onClick={back}>
                Back to the password
              </Button>
            )}
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
