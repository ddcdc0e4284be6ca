import { Bot, LockKeyhole } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/hooks/use-toast";
import { ApiError, loginErrorText, takeSessionEnded } from "@/lib/api";
import { useLogin } from "@/lib/queries";

// Kept free of the form and schema libraries: this screen is in the first chunk every visitor loads.
export default function LoginPage() {
  const [password, setPassword] = useState("");
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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return;
    login.mutate(
      { password },
      {
        onSuccess: () => toast({ title: "Login successful!" }),
        onError: (failure) => {
          setError(loginErrorText(failure));
          toast(
            failure instanceof ApiError
              ? { title: "Login failed", description: loginErrorText(failure), variant: "destructive" }
              : { title: "Error", description: loginErrorText(failure), variant: "destructive" },
          );
        },
      },
    );
  };

  return (
    <div className="bg-muted/40 flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-sm">
        <CardHeader className="justify-items-center text-center">
          <div className="bg-primary text-primary-foreground mb-2 flex size-12 items-center justify-center rounded-xl">
            <Bot className="size-6" />
          </div>
          <CardTitle className="text-xl">Admin Dashboard</CardTitle>
          <CardDescription>Enter the admin password to manage your shop</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} className="grid gap-4">
            <div className="grid gap-2">
              <Label htmlFor="password">Password</Label>
              <div className="relative">
                <LockKeyhole className="text-muted-foreground absolute top-1/2 left-3 size-4 -translate-y-1/2" />
                <Input
                  id="password"
                  type="password"
                  autoComplete="current-password"
                  placeholder="Enter admin password"
                  className="pl-9"
                  required
                  autoFocus
                  value={password}
                  onChange={(event) => {
                    setPassword(event.target.value);
                    setError(null);
                  }}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? "password-error" : undefined}
                />
              </div>
              {error && (
                <p id="password-error" className="text-destructive text-sm">
                  {error}
                </p>
              )}
            </div>
            <Button type="submit" className="w-full" disabled={login.isPending}>
              {login.isPending ? "Logging in..." : "Access Dashboard"}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
