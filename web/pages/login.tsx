import { Bot } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PasswordField } from "@/components/password-field";
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
            <Button type="submit" className="w-full" disabled={login.isPending}>
              {login.isPending ? "Logging in..." : "Access Dashboard"}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
