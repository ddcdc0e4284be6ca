import { KeyRound } from "lucide-react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { CODE_MAX_LENGTH } from "@/lib/two-factor";

// The two-factor code as every screen asks for it (the login's second step, step-up, turning
// two-factor on or off): the app's 6 digits, or a recovery code, so not a number field. Kept free of
// the form libraries: the login screen is in the first chunk every visitor loads.

type TwoFactorCodeFieldProps = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** Why the last try failed: shown under the field, tied to it, and the field marked invalid. */
  error: string | null;
  announceError?: boolean;
  label?: string;
  hint?: string;
};

export function TwoFactorCodeField({
  id,
  value,
  onChange,
  error,
  announceError = false,
  label = "Two-factor code",
  hint = "6 digits from your authenticator app, or a recovery code.",
}: TwoFactorCodeFieldProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <KeyRound className="text-muted-foreground absolute top-1/2 left-3 size-4 -translate-y-1/2" aria-hidden="true" />
        <Input
          id={id}
          type="text"
          inputMode="text"
          autoComplete="one-time-code"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={CODE_MAX_LENGTH}
          placeholder="123 456"
          className="pl-9 font-mono tracking-wider"
          autoFocus
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        />
      </div>
      <p id={hintId} className="text-muted-foreground text-xs">
        {hint}
      </p>
      {error && (
        <p id={errorId} className="text-destructive text-sm" role={announceError ? "alert" : undefined}>
          {error}
        </p>
      )}
    </div>
  );
}
