import { LockKeyhole } from "lucide-react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

// The admin password as both sign-ins ask for it (the login screen, and the sign-in over an open
// dialog when a save meets an ended session): one field, so the two mark a wrong password alike.
// Kept free of the form libraries: the login screen is in the first chunk every visitor loads.

type PasswordFieldProps = {
  id: string;
  value: string;
  /** Called with the new value on typing; the caller clears its error then. */
  onChange: (value: string) => void;
  /** Why the last try failed: shown under the field, tied to it, and the field marked invalid. */
  error: string | null;
  /** Read out as it appears; off where a toast already says it (the login screen). */
  announceError?: boolean;
  placeholder?: string;
  required?: boolean;
};

export function PasswordField({ id, value, onChange, error, announceError = false, placeholder, required }: PasswordFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Password</Label>
      <div className="relative">
        <LockKeyhole className="text-muted-foreground absolute top-1/2 left-3 size-4 -translate-y-1/2" aria-hidden="true" />
        <Input
          id={id}
          type="password"
          autoComplete="current-password"
          placeholder={placeholder}
          className="pl-9"
          required={required}
          autoFocus
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </div>
      {error && (
        <p id={errorId} className="text-destructive text-sm" role={announceError ? "alert" : undefined}>
          {error}
        </p>
      )}
    </div>
  );
}
