import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, KeyRound, LockKeyhole, PowerOff, ShieldCheck } from "lucide-react";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import type { OwnerSealKey, PrivateAddresses } from "../../../contract";
import { checkPassphraseStrength, createOwnerKey, formatKeyId, rewrapOwnerKey } from "../../../contract/owner-seal";
import { UnlockAddressesButton } from "@/components/orders/sealed-address";
import { StaffAddressAccessSection } from "./staff-address-access";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/hooks/use-toast";
import { apiRequest, describeError } from "@/lib/api";
import { cryptoAvailable, NO_CRYPTO_MESSAGE, PRIVATE_ADDRESSES_KEY, useOwnerKeys, usePrivateAddresses } from "@/lib/owner-keys";

// "Private addresses" on Bot Settings (issue 15, item 2; docs/decisions/0025): the owner-only mode.
// The key pair is made and wrapped here, in the browser (contract/owner-seal.ts); the server is sent
// the public key and the wrapped private key, never the passphrase.

export const LOST_PASSPHRASE_WARNING =
  "Nobody can reset or recover this passphrase: not you, not the shop's server, not its developers. If it is lost, every address sealed with it is lost for good, including those of orders you have not sent yet.";

export function PrivateAddressesCard() {
  const state = usePrivateAddresses();
  return (
    <Card data-testid="private-addresses-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <LockKeyhole className="text-muted-foreground size-5" aria-hidden="true" />
          Private addresses
        </CardTitle>
        <CardDescription>
          Seal each new delivery address so that only you can read it, with a passphrase that never leaves your browser. Not even the shop's server
          can read a sealed address, so a stolen database or backup reveals none.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {state.isError ? (
          <p role="alert" className="text-destructive text-sm">
            Private addresses could not be loaded: {describeError(state.error)}
          </p>
        ) : !state.data ? (
          <p className="text-muted-foreground text-sm">Loading private addresses...</p>
        ) : (
          <>
            {!cryptoAvailable() && (
              <p role="alert" className="text-destructive text-sm">
                {NO_CRYPTO_MESSAGE}
              </p>
            )}
            {state.data.enabled ? <EnabledState setup={state.data} /> : <TurnOnForm setup={state.data} />}
            {state.data.keys.length > 0 && <StaffAddressAccessSection setup={state.data} />}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function LostPassphraseWarning() {
  return (
    <div className="flex gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50" data-testid="lost-passphrase-warning">
      <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="space-y-1">
        <p className="font-semibold">A lost passphrase means lost addresses</p>
        <p>{LOST_PASSPHRASE_WARNING}</p>
      </div>
    </div>
  );
}

/** A passphrase field with its label; `error` is shown under it and announced. */
function PassphraseField({
  id,
  label,
  value,
  onChange,
  autoComplete,
  error,
  help,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: "new-password" | "current-password";
  error?: string | null;
  help?: ReactNode;
}) {
  const described = [help ? `${id}-help` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="password"
        autoComplete={autoComplete}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
      />
      {help && (
        <p id={`${id}-help`} className="text-muted-foreground text-sm">
          {help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-destructive text-sm">
          {error}
        </p>
      )}
    </div>
  );
}

/** The new passphrase typed twice: the first problem to show, or null. */
function newPassphraseProblem(passphrase: string, repeated: string): { field: "new" | "repeat"; message: string } | null {
  const weak = checkPassphraseStrength(passphrase);
  if (weak) return { field: "new", message: weak };
  if (passphrase !== repeated) return { field: "repeat", message: "The two passphrases are not the same." };
  return null;
}

function TurnOnForm({ setup }: { setup: PrivateAddresses }) {
  const queryClient = useQueryClient();
  const { unlock } = useOwnerKeys();
  const id = useId();
  const [passphrase, setPassphrase] = useState("");
  const [repeated, setRepeated] = useState("");
  const [understood, setUnderstood] = useState(false);
  const [problem, setProblem] = useState<{ field: "new" | "repeat" | "understood" | "form"; message: string } | null>(null);

  const turnOn = useMutation({
    mutationFn: async (chosen: string) => {
      const key = await createOwnerKey(chosen);
      const answer = await apiRequest<PrivateAddresses>("POST", "/api/private-addresses", {
        publicKey: key.publicKey,
        wrappedPrivateKey: key.wrappedPrivateKey,
        salt: key.salt,
        iterations: key.iterations,
      });
      queryClient.setQueryData(PRIVATE_ADDRESSES_KEY, answer);
      // The owner just typed it: this tab is unlocked straight away.
      await unlock(chosen);
      return answer;
    },
    onSuccess: () => {
      setPassphrase("");
      setRepeated("");
      toast({ title: "Private addresses are on", description: "New addresses are sealed to your key. This tab is unlocked." });
    },
    onError: (error) => setProblem({ field: "form", message: describeError(error) }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = newPassphraseProblem(passphrase, repeated);
    if (found) return setProblem(found);
    if (!understood) return setProblem({ field: "understood", message: "Please confirm that you have kept the passphrase somewhere safe." });
    setProblem(null);
    turnOn.mutate(passphrase);
  }

  const earlier = setup.keys.length;
  return (
    <form onSubmit={submit} className="space-y-5" aria-label="Turn on private addresses" noValidate>
      <p className="text-sm" data-testid="private-addresses-state">
        <span className="font-medium">Off:</span> new addresses are encrypted with the shop's own key, which the server can use to show them.
      </p>
      {earlier > 0 && (
        <p className="text-muted-foreground text-sm">
          Addresses sealed while this was on stay sealed. {earlier === 1 ? "They open" : "Each opens"} with the passphrase of the key{" "}
          {earlier === 1 ? "it was" : "they were"} sealed to: <UnlockAddressesButton showLock className="ml-1" />
        </p>
      )}
      <LostPassphraseWarning />
      <div className="grid gap-5 md:grid-cols-2">
        <PassphraseField
          id={`${id}-new`}
          label="Passphrase"
          value={passphrase}
          onChange={setPassphrase}
          autoComplete="new-password"
          error={problem?.field === "new" ? problem.message : null}
          help="At least 12 characters. A few unrelated words are easy to remember and hard to guess."
        />
        <PassphraseField
          id={`${id}-repeat`}
          label="Passphrase again"
          value={repeated}
          onChange={setRepeated}
          autoComplete="new-password"
          error={problem?.field === "repeat" ? problem.message : null}
        />
      </div>
      <div className="space-y-1">
        <div className="flex items-start gap-2">
          <Checkbox
            id={`${id}-understood`}
            checked={understood}
            onCheckedChange={(checked) => {
              setUnderstood(checked === true);
              if (checked === true && problem?.field === "understood") setProblem(null);
            }}
            aria-describedby={problem?.field === "understood" ? `${id}-understood-error` : undefined}
          />
          <Label htmlFor={`${id}-understood`} className="leading-snug font-normal">
            I have kept this passphrase somewhere safe, and I understand that without it sealed addresses cannot be read.
          </Label>
        </div>
        {problem?.field === "understood" && (
          <p id={`${id}-understood-error`} role="alert" className="text-destructive text-sm">
            {problem.message}
          </p>
        )}
      </div>
      {problem?.field === "form" && (
        <p role="alert" className="text-destructive text-sm">
          {problem.message}
        </p>
      )}
      <Button type="submit" disabled={turnOn.isPending || !cryptoAvailable()}>
        <ShieldCheck />
        {turnOn.isPending ? "Making your key..." : "Turn on private addresses"}
      </Button>
    </form>
  );
}

function EnabledState({ setup }: { setup: PrivateAddresses }) {
  const { keys } = useOwnerKeys();
  const active = setup.keys.find((key) => key.keyId === setup.activeKeyId);
  if (!active) return null;
  const unlocked = keys.has(active.keyId);
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="space-y-1 text-sm" data-testid="private-addresses-state">
          <p>
            <span className="font-medium text-green-700 dark:text-green-400">On:</span> new addresses are sealed to your key.
          </p>
          <p>
            Key fingerprint: <span className="font-mono" data-testid="private-addresses-fingerprint">{formatKeyId(active.keyId)}</span>
          </p>
          <p className="text-muted-foreground">{unlocked ? "Unlocked in this tab until you reload or log out." : "Locked in this tab."}</p>
        </div>
        <UnlockAddressesButton showLock size="default" />
      </div>
      <LostPassphraseWarning />
      <ChangePassphraseForm active={active} />
      <TurnOffButton />
    </div>
  );
}

function ChangePassphraseForm({ active }: { active: OwnerSealKey }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [current, setCurrent] = useState("");
  const [passphrase, setPassphrase] = useState("");
  const [repeated, setRepeated] = useState("");
  const [problem, setProblem] = useState<{ field: "current" | "new" | "repeat" | "form"; message: string } | null>(null);

  const change = useMutation({
    mutationFn: async () => {
      const rewrapped = await rewrapOwnerKey(active, current, passphrase);
      return apiRequest<PrivateAddresses>("PUT", "/api/private-addresses/passphrase", {
        keyId: active.keyId,
        currentSalt: active.salt,
        wrappedPrivateKey: rewrapped.wrappedPrivateKey,
        salt: rewrapped.salt,
        iterations: rewrapped.iterations,
      });
    },
    onSuccess: (answer) => {
      queryClient.setQueryData(PRIVATE_ADDRESSES_KEY, answer);
      setCurrent("");
      setPassphrase("");
      setRepeated("");
      toast({ title: "Passphrase changed", description: "Every sealed address now opens with the new passphrase only." });
    },
    onError: (error) => {
      const message = describeError(error);
      setProblem({ field: /does not unlock/.test(message) ? "current" : "form", message });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (current === "") return setProblem({ field: "current", message: "Please type the current passphrase." });
    const found = newPassphraseProblem(passphrase, repeated);
    if (found) return setProblem(found);
    setProblem(null);
    change.mutate();
  }

  return (
    <form onSubmit={submit} className="space-y-4 rounded-md border p-4" aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`} className="flex items-center gap-2 font-semibold">
        <KeyRound className="text-muted-foreground size-4" aria-hidden="true" />
        Change passphrase
      </h3>
      <p className="text-muted-foreground text-sm">Your key stays the same, so every address sealed so far opens with the new passphrase.</p>
      <div className="grid gap-4 md:grid-cols-3">
        <PassphraseField
          id={`${id}-current`}
          label="Current passphrase"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          error={problem?.field === "current" ? problem.message : null}
        />
        <PassphraseField
          id={`${id}-new`}
          label="New passphrase"
          value={passphrase}
          onChange={setPassphrase}
          autoComplete="new-password"
          error={problem?.field === "new" ? problem.message : null}
        />
        <PassphraseField
          id={`${id}-repeat`}
          label="New passphrase again"
          value={repeated}
          onChange={setRepeated}
          autoComplete="new-password"
          error={problem?.field === "repeat" ? problem.message : null}
        />
      </div>
      {problem?.field === "form" && (
        <p role="alert" className="text-destructive text-sm">
          {problem.message}
        </p>
      )}
      <Button type="submit" variant="outline" disabled={change.isPending || !cryptoAvailable()}>
        {change.isPending ? "Changing..." : "Change passphrase"}
      </Button>
    </form>
  );
}

function TurnOffButton() {
  const queryClient = useQueryClient();
  const turnOff = useMutation({
    mutationFn: () => apiRequest<PrivateAddresses>("DELETE", "/api/private-addresses"),
    onSuccess: (answer) => {
      queryClient.setQueryData(PRIVATE_ADDRESSES_KEY, answer);
      toast({ title: "Private addresses are off", description: "Addresses sealed until now stay sealed: keep your passphrase." });
    },
    onError: (error) => toast({ title: "Private addresses were not turned off", description: describeError(error), variant: "destructive" }),
  });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" disabled={turnOff.isPending}>
          <PowerOff />
          Turn off private addresses
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Turn off private addresses?</AlertDialogTitle>
          <AlertDialogDescription>
            New addresses will be encrypted with the shop's own key again, which the server can read. Addresses sealed until now stay sealed: the
            server cannot open them to change that, so you will still need this passphrase to read them. Keep it.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => turnOff.mutate()}>Turn off</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
