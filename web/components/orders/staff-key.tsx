import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import type { MyGrants, MySealKeyChange, StaffSealKey } from "../../../contract";
import { checkPassphraseStrength, createOwnerKey, formatKeyId, unlockOwnerKey } from "../../../contract/owner-seal";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/hooks/use-toast";
import { apiRequest, describeError } from "@/lib/api";
import { cryptoAvailable, MY_GRANTS_KEY, MY_SEAL_KEY_KEY, NO_CRYPTO_MESSAGE, NO_GRANTS_MESSAGE } from "@/lib/owner-keys";

// A staff member's own key for sealed addresses (docs/decisions/0037-sealed-address-grants.md): made
// in this browser like the owner's, from a passphrase only they know. The owner then gives that key
// access; the fingerprint shown here is the one the owner checks before doing so.

/** The fingerprint, as both screens show it, for the owner and the staff member to compare. */
export function KeyFingerprint({ keyId }: { keyId: string }) {
  return (
    <span className="font-mono" data-testid="staff-key-fingerprint">
      {formatKeyId(keyId)}
    </span>
  );
}

/**
 * "Ask the owner for access", with the key's fingerprint as this browser made or checked it (never
 * as the server merely says it is): the owner compares it with the one beside the staff member's name
 * before giving access, so a key swapped in the shop's database would not be given the owner's keys.
 */
export function AskOwnerForAccess({ fingerprint }: { fingerprint: string }) {
  return (
    <div className="space-y-3 text-sm" data-testid="ask-owner-for-access">
      <p>{NO_GRANTS_MESSAGE}</p>
      <p>
        Your key's fingerprint is <KeyFingerprint keyId={fingerprint} />. Read it to the owner: they give access only when it is the one they see
        beside your name.
      </p>
    </div>
  );
}

/** A staff member with a key and no access: their passphrase checks the key, then its fingerprint shows. */
export function CheckKeyForm({ staffKey, onChecked, onNewKey }: { staffKey: StaffSealKey; onChecked: (keyId: string) => void; onNewKey: () => void }) {
  const id = useId();
  const [passphrase, setPassphrase] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      // Opens the key and checks that the public key the shop keeps is this key's own.
      onChecked((await unlockOwnerKey(staffKey, passphrase)).keyId);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Check your key" noValidate>
      <p className="text-sm">{NO_GRANTS_MESSAGE}</p>
      <p className="text-muted-foreground text-sm">Type your passphrase to show your key's fingerprint, checked in this browser, to read to the owner.</p>
      <div className="space-y-2">
        <Label htmlFor={`${id}-passphrase`}>Your passphrase</Label>
        <Input
          id={`${id}-passphrase`}
          type="password"
          autoComplete="current-password"
          value={passphrase}
          onChange={(event) => setPassphrase(event.target.value)}
          aria-invalid={error !== null}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
        />
        {error && (
          <p id={`${id}-error`} role="alert" className="text-destructive text-sm">
            {error}
          </p>
        )}
      </div>
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onNewKey}>
          Forgot your passphrase?
        </Button>
        <Button type="submit" disabled={busy || passphrase === ""}>
          {busy ? "Checking..." : "Show my key's fingerprint"}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * Choose a passphrase and make a key pair in this browser; only the public key and the private key
 * wrapped by the passphrase are sent. `replacing`: a new key pair for a forgotten passphrase, which
 * takes away the access the owner gave to the old one.
 */
export function SetUpKeyForm({ replacing, onCancel, onDone }: { replacing: boolean; onCancel?: () => void; onDone: (keyId: string) => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [passphrase, setPassphrase] = useState("");
  const [repeated, setRepeated] = useState("");
  const [problem, setProblem] = useState<{ field: "new" | "repeat" | "form"; message: string } | null>(null);

  const setUp = useMutation({
    mutationFn: async (chosen: string) => {
      const key = await createOwnerKey(chosen);
      const answer = await apiRequest<MySealKeyChange>("PUT", "/api/private-addresses/my-key", {
        publicKey: key.publicKey,
        wrappedPrivateKey: key.wrappedPrivateKey,
        salt: key.salt,
        iterations: key.iterations,
      });
      if (answer.key.keyId !== key.keyId) throw new Error("The shop kept another key than the one this browser made. Reload the page and try again.");
      return answer;
    },
    onSuccess: (answer) => {
      queryClient.setQueryData(MY_SEAL_KEY_KEY, { key: answer.key });
      // A new key pair opens nothing sealed to the old one: the server removed those grants.
      queryClient.setQueryData<MyGrants>(MY_GRANTS_KEY, (before) => before && { ...before, grants: [] });
      void queryClient.invalidateQueries({ queryKey: MY_GRANTS_KEY });
      setPassphrase("");
      setRepeated("");
      toast({ title: "Your key is set up", description: "Now ask the owner to give it access to sealed addresses." });
      onDone(answer.key.keyId);
    },
    onError: (error) => setProblem({ field: "form", message: describeError(error) }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (setUp.isPending) return;
    const weak = checkPassphraseStrength(passphrase);
    if (weak) return setProblem({ field: "new", message: weak });
    if (passphrase !== repeated) return setProblem({ field: "repeat", message: "The two passphrases are not the same." });
    setProblem(null);
    setUp.mutate(passphrase);
  }

  const field = (which: "new" | "repeat", label: string, value: string, onChange: (value: string) => void, help?: string) => {
    const error = problem?.field === which ? problem.message : null;
    const described = [help ? `${id}-${which}-help` : null, error ? `${id}-${which}-error` : null].filter(Boolean).join(" ") || undefined;
    return (
      <div className="space-y-2">
        <Label htmlFor={`${id}-${which}`}>{label}</Label>
        <Input
          id={`${id}-${which}`}
          type="password"
          autoComplete="new-password"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          autoFocus={which === "new"}
        />
        {help && (
          <p id={`${id}-${which}-help`} className="text-muted-foreground text-sm">
            {help}
          </p>
        )}
        {error && (
          <p id={`${id}-${which}-error`} role="alert" className="text-destructive text-sm">
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label={replacing ? "Make a new key" : "Set up your key"} noValidate>
      <p className="text-sm">
        {replacing
          ? "A new key replaces the one you cannot open. The access the owner gave to the old key goes with it: ask the owner to give access again."
          : "Choose a passphrase only you know. It opens your key in this browser; the owner then gives your key access to sealed addresses."}
      </p>
      <p className="text-muted-foreground text-sm">
        Nobody can reset it for you. If you forget it, make a new key here and ask the owner for access again.
      </p>
      {!cryptoAvailable() && (
        <p role="alert" className="text-destructive text-sm">
          {NO_CRYPTO_MESSAGE}
        </p>
      )}
      {field("new", "Your passphrase", passphrase, setPassphrase, "At least 12 characters. A few unrelated words are easy to remember and hard to guess.")}
      {field("repeat", "Your passphrase again", repeated, setRepeated)}
      {problem?.field === "form" && (
        <p role="alert" className="text-destructive text-sm">
          {problem.message}
        </p>
      )}
      <DialogFooter>
        {onCancel && (
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" disabled={setUp.isPending || !cryptoAvailable()}>
          <KeyRound />
          {setUp.isPending ? "Making your key..." : replacing ? "Make a new key" : "Set up your key"}
        </Button>
      </DialogFooter>
    </form>
  );
}
