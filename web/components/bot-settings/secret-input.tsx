import { KeyRound, Lock, Undo2 } from "lucide-react";
import { useId, useRef } from "react";
import { useFormContext, type ControllerRenderProps, type FieldPath, type FieldPathValue, type FieldValues } from "react-hook-form";
import { looksMasked, maskedHint } from "../../../contract";
import { Button } from "@/components/ui/button";
import { FormControl } from "@/components/ui/form";
import { Input } from "@/components/ui/input";

// A secret of Bot Settings: the bot token, the NOWPayments API key or IPN secret. The server never
// answers one in clear, only masked ("••••••••wxyz", contract/secret-mask.ts; docs/SECURITY.md).
// A stored secret shows as "set (…wxyz)" with Replace, which opens an empty input for the new one
// (Cancel goes back to the stored one). Left as it is, the mask is sent back and the server keeps
// the secret. Without a stored secret: the plain input, as before.

type Props<TValues extends FieldValues, TName extends FieldPath<TValues>> = {
  /** The field's visible label ("Bot Token"): the Replace and Cancel buttons name it. */
  label: string;
  placeholder: string;
  /** What the server answered for this secret: its mask when one is stored, else "" or null. */
  saved: string | null | undefined;
  field: ControllerRenderProps<TValues, TName>;
  /**
   * The account's role may not change this secret (the token is "bot.token", the NOWPayments keys
   * "payments": the owner's, contract/team.ts): shown as set or not, with no way to replace it. The
   * form then sends the mask back, which keeps the secret (the server refuses any other value).
   */
  locked?: boolean;
};

export function SecretInput<TValues extends FieldValues, TName extends FieldPath<TValues>>({
  label,
  placeholder,
  saved,
  field,
  locked = false,
}: Props<TValues, TName>) {
  const statusId = useId();
  const form = useFormContext<TValues>();
  // Without validating: an empty field just opened for typing is not yet an error ("is required").
  const setValue = (value: string) => {
    form.setValue(field.name, value as FieldPathValue<TValues, TName>, { shouldDirty: true, shouldValidate: false });
    form.clearErrors(field.name);
  };
  // Replace moves the focus into the new empty input, Cancel back onto Replace.
  const focusNext = useRef(false);
  const focusOnMount = (element: HTMLElement | null) => {
    if (element && focusNext.current) {
      focusNext.current = false;
      element.focus();
    }
  };
  const stored = typeof saved === "string" && looksMasked(saved) ? saved : null;
  const value = typeof field.value === "string" ? field.value : "";

  if (locked) {
    const hint = stored !== null ? maskedHint(stored) : null;
    return (
      <p data-testid={`${field.name}-locked`} className="bg-muted/50 text-muted-foreground flex h-9 min-w-0 items-center gap-2 rounded-md border px-3 text-sm">
        <Lock className="size-4 shrink-0" aria-hidden="true" />
        <span className="truncate">
          {stored === null ? "not set" : hint ? `set (…${hint})` : "set"} · only the owner can change it
        </span>
      </p>
    );
  }

  if (stored !== null && value === stored) {
    const hint = maskedHint(stored);
    return (
      <div className="flex gap-2">
        <p
          id={statusId}
          data-testid={`${field.name}-set`}
          className="bg-muted/50 flex h-9 min-w-0 flex-1 items-center gap-2 rounded-md border px-3 text-sm"
        >
          <KeyRound className="text-muted-foreground size-4 shrink-0" aria-hidden="true" />
          <span className="truncate">{hint ? `set (…${hint})` : "set"}</span>
        </p>
        <Button
          ref={focusOnMount}
          type="button"
          variant="outline"
          aria-label={`Replace ${label}`}
          aria-describedby={statusId}
          onClick={() => {
            focusNext.current = true;
            setValue("");
          }}
        >
          Replace
        </Button>
      </div>
    );
  }

  return (
    <div className="flex gap-2">
      <FormControl>
        <Input
          type="password"
          autoComplete="off"
          placeholder={placeholder}
          name={field.name}
          value={value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          disabled={field.disabled}
          ref={(element) => {
            field.ref(element);
            focusOnMount(element);
          }}
        />
      </FormControl>
      {stored !== null && (
        <Button
          type="button"
          variant="ghost"
          aria-label={`Cancel replacing ${label}`}
          onClick={() => {
            focusNext.current = true;
            setValue(stored);
          }}
        >
          <Undo2 aria-hidden="true" />
          Cancel
        </Button>
      )}
    </div>
  );
}
