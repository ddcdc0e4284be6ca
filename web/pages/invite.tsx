import { useQuery } from "@tanstack/react-query";
import { Bot } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { type InviteGreeting, PASSWORD_MIN_LENGTH, ROLE_LABELS } from "../../contract";
import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/hooks/use-toast";
import { apiRequest, describeError } from "@/lib/api";

// The invite link's page (issue 25), outside the signed-in app (web/app.tsx routes /invite/:token
// here whoever is signed in): it greets the invitee by name, asks for a password twice, and shows
// the server's own sentence when it refuses one (too short, too common) or the link (used, expired).
// Once the password is set, the login page takes over. Kept free of the form libraries, as the login.

function Frame({ title, description, children }: { title: string; description: string; children?: React.ReactNode }) {
  return (
    <div className="bg-muted/40 flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-sm">
        <CardHeader className="justify-items-center text-center">
          <div className="bg-primary text-primary-foreground mb-2 flex size-12 items-center justify-center rounded-xl">
            <Bot className="size-6" />
          </div>
          <CardTitle className="text-xl" role="heading" aria-level={1}>
            {title}
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        {children && <CardContent>{children}</CardContent>}
      </Card>
    </div>
  );
}

export default function InvitePage({ token }: { token: string }) {
  const [, navigate] = useLocation();
  const inviteUrl = `/api/staff/invites/${encodeURIComponent(token)}`;
  const greeting = useQuery<InviteGreeting>({ queryKey: [inviteUrl], queryFn: () => apiRequest<InviteGreeting>("GET", inviteUrl), retry: false });
  const [password, setPassword] = useState("");
  const [repeated, setRepeated] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    document.title = "Welcome · Shop Admin";
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== repeated) {
      setError("The two passwords are not the same.");
      return;
    }
    setSaving(true);
    try {
      await apiRequest("POST", inviteUrl, { password });
      toast({ title: "Your password is set", description: "Sign in with your username and this password." });
      // The login page shows at any address while signed out; "/" then opens the Dashboard.
      navigate("/", { replace: true });
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setSaving(false);
    }
  };

  if (greeting.isLoading) return <Spinner className="min-h-screen" label="Opening your invitation" />;
  if (greeting.isError || !greeting.data) {
    return <Frame title="This link cannot be used" description={describeError(greeting.error)} />;
  }
  const { name, username, role } = greeting.data;
  const errorId = "invite-password-error";
  return (
    <Frame title={`Welcome, ${name}`} description={`You are invited to the shop's back office as ${ROLE_LABELS[role]}. Choose your password.`}>
      <form onSubmit={(event) => void submit(event)} className="grid gap-4">
        {/* For password managers: the password belongs to this username. */}
        <div className="grid gap-2">
          <Label htmlFor="invite-username">Username</Label>
          <Input id="invite-username" autoComplete="username" readOnly value={username} className="font-mono" />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="invite-password">New password</Label>
          <Input
            id="invite-password"
            type="password"
            autoComplete="new-password"
            required
            autoFocus
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `invite-password-hint ${errorId}` : "invite-password-hint"}
          />
          <p id="invite-password-hint" className="text-muted-foreground text-xs">
            At least {PASSWORD_MIN_LENGTH} characters. A few words you will remember work well.
          </p>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="invite-password-again">Repeat the password</Label>
          <Input
            id="invite-password-again"
            type="password"
            autoComplete="new-password"
            required
            value={repeated}
            onChange={(event) => {
              setRepeated(event.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
          />
        </div>
        {error && (
          <p id={errorId} className="text-destructive text-sm" role="alert">
            {error}
          </p>
        )}
        <Button type="submit" className="w-full" disabled={saving || !password || !repeated}>
          {saving ? "Saving..." : "Set password"}
        </Button>
      </form>
    </Frame>
  );
}
