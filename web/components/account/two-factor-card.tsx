import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ShieldCheck, ShieldOff } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import type { RecoveryCodes, TotpSetup, TwoFactorStatus } from "../../../contract";
import { CopyButton } from "@/components/copy-button";
import { FormAlertDialog } from "@/components/form-alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/hooks/use-toast";
import { apiRequest, describeError } from "@/lib/api";
import { queryKeys } from "@/lib/queries";
import { clearTwoFactorRequired } from "@/lib/two-factor";
import { RecoveryCodesList } from "./recovery-codes";
import { TwoFactorCodeField } from "./two-factor-code-field";

// The Two-factor card of Your account (issue 25): turn on (scan the QR code or type the secret,
// confirm a code, save the ten recovery codes shown this once) and turn off (with a code).

export const TWO_FACTOR_KEY = ["/api/auth/totp"] as const;

/** The secret in groups of four, as people type it into an app. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/** The otpauth:// link as a QR code, an SVG drawn here (no image leaves the browser or comes from elsewhere). */
function useQrCode(text: string): string | null {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void import("qrcode").then(async (QRCode) => {
      const svg = await QRCode.toString(text, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
      if (current) setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      current = false;
    };
  }, [text]);
  return image;
}

export function TwoFactorCard() {
  const status = useQuery<TwoFactorStatus>({ queryKey: TWO_FACTOR_KEY });
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const begin = useMutation({
    mutationFn: () => apiRequest<TotpSetup>("POST", "/api/auth/totp/setup", {}),
    onSuccess: setSetup,
    onError: (error) => toast({ title: "Two-factor setup could not start", description: describeError(error), variant: "destructive" }),
  });

  const enabled = status.data?.enabled === true;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {enabled ? <ShieldCheck className="text-muted-foreground size-5" /> : <ShieldOff className="text-muted-foreground size-5" />}
          Two-factor sign-in
          {status.data && <Badge variant={enabled ? "default" : "secondary"}>{enabled ? "On" : "Off"}</Badge>}
        </CardTitle>
        <CardDescription>
          A code from an authenticator app on your phone (Google Authenticator, 1Password, Aegis...) at each sign-in, and before
          sensitive changes: a stolen password alone no longer opens your account.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {status.isError ? (
          <p role="alert" className="text-destructive text-sm">
            Two-factor sign-in could not be loaded: {describeError(status.error)}
          </p>
        ) : !status.data ? (
          <p className="text-muted-foreground text-sm">Loading...</p>
        ) : recoveryCodes ? (
          <RecoveryCodesList codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
        ) : setup ? (
          <SetupSteps
            setup={setup}
            onCancel={() => setSetup(null)}
            onEnabled={(codes) => {
              setSetup(null);
              setRecoveryCodes(codes);
            }}
          />
        ) : enabled ? (
          <EnabledState recoveryCodesLeft={status.data.recoveryCodesLeft} />
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-muted-foreground flex-1 text-sm">Two-factor sign-in is off: your password alone signs you in.</p>
            <Button onClick={() => begin.mutate()} disabled={begin.isPending}>
              {begin.isPending ? "Starting..." : "Turn on two-factor"}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function SetupSteps({ setup, onCancel, onEnabled }: { setup: TotpSetup; onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const queryClient = useQueryClient();
  const qrCode = useQrCode(setup.otpauthUrl);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const verify = useMutation({
    mutationFn: (typed: string) => apiRequest<RecoveryCodes>("POST", "/api/auth/totp/verify", { code: typed }),
    onSuccess: ({ recoveryCodes }) => {
      clearTwoFactorRequired();
      void queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY });
      void queryClient.invalidateQueries({ queryKey: queryKeys.authStatus });
      // Turning it on signed this account out everywhere else (docs/SECURITY.md): the sessions card shows one left.
      void queryClient.invalidateQueries({ queryKey: ["/api/sessions"] });
      toast({ title: "Two-factor sign-in is on", description: "Your other sessions were ended." });
      onEnabled(recoveryCodes);
    },
    onError: (failure) => setError(describeError(failure)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError("Enter the code your app shows for this shop.");
    verify.mutate(code);
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Set up two-factor sign-in" noValidate>
      <ol className="text-muted-foreground list-decimal space-y-1 pl-5 text-sm">
        <li>Open your authenticator app and add an account.</li>
        <li>Scan the QR code, or type the key below.</li>
        <li>Enter the 6-digit code the app then shows.</li>
      </ol>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="bg-white flex size-48 shrink-0 items-center justify-center rounded-md border p-2">
          {qrCode ? <img src={qrCode} alt="QR code to scan with your authenticator app" className="size-full" /> : <span className="text-muted-foreground text-xs">Drawing the QR code...</span>}
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <p className="text-sm font-medium" id="totp-secret-label">
            Key to type instead
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code data-testid="totp-secret" aria-labelledby="totp-secret-label" className="bg-muted rounded px-2 py-1 font-mono text-sm break-all">
              {grouped(setup.secret)}
            </code>
            <CopyButton text={setup.secret} successTitle="Key copied" ariaLabel="Copy the key" />
          </div>
          <p className="text-muted-foreground text-xs">Time-based, 6 digits, every 30 seconds (the apps' usual setting).</p>
        </div>
      </div>
      <div className="max-w-xs">
        <TwoFactorCodeField
          id="totp-setup-code"
          label="Code from the app"
          hint="The 6 digits it shows now."
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(null);
          }}
          error={error}
          announceError
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={verify.isPending}>
          {verify.isPending ? "Checking..." : "Confirm and turn on"}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function EnabledState({ recoveryCodesLeft }: { recoveryCodesLeft: number }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const disable = useMutation({
    mutationFn: (typed: string) => apiRequest("POST", "/api/auth/totp/disable", { code: typed }),
    onSuccess: () => {
      setAsking(false);
      void queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY });
      void queryClient.invalidateQueries({ queryKey: queryKeys.authStatus });
      toast({ title: "Two-factor sign-in is off" });
    },
    onError: (failure) => setError(describeError(failure)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError("Enter the code from your authenticator app.");
    disable.mutate(code);
  };

  return (
    <div className="flex flex-wrap items-center gap-3">
      <p className="flex-1 text-sm">
        Two-factor sign-in is on.{" "}
        <span className={recoveryCodesLeft <= 2 ? "text-destructive" : "text-muted-foreground"} data-testid="recovery-codes-left">
          {recoveryCodesLeft} of 10 recovery codes left
          {recoveryCodesLeft <= 2 ? ": turn two-factor off and on again for ten new ones." : "."}
        </span>
      </p>
      <Button
        variant="outline"
        onClick={() => {
          setCode("");
          setError(null);
          setAsking(true);
        }}
      >
        Turn off two-factor
      </Button>
      <FormAlertDialog
        open={asking}
        onOpenChange={setAsking}
        title="Turn off two-factor sign-in?"
        description="Your password alone will sign you in again, and your recovery codes stop working. Enter a code to confirm."
        onSubmit={submit}
        cancelLabel="Keep it on"
        submitLabel="Turn off"
        pendingLabel="Turning off..."
        pending={disable.isPending}
        destructive
      >
        <TwoFactorCodeField
          id="totp-disable-code"
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(null);
          }}
          error={error}
          announceError
        />
      </FormAlertDialog>
    </div>
  );
}
