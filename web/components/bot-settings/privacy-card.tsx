import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Save, ShieldCheck } from "lucide-react";
import { useState, type FormEvent } from "react";
import type { PrivacySettings } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/hooks/use-toast";
import { apiRequest, describeError } from "@/lib/api";

// Privacy on Bot Settings (issue 15, item 3): how long addresses and customer messages are kept.
// Its own form and Save: it is not part of the bot's settings (the form of docs/product.md §2 stays as it is).

const PRIVACY_KEY = ["/api/privacy-settings"] as const;

export function PrivacyCard() {
  const settings = useQuery<PrivacySettings>({ queryKey: PRIVACY_KEY });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="text-muted-foreground size-5" />
          Privacy
        </CardTitle>
        <CardDescription>How long the shop keeps what customers tell it. Customers can also erase their data with /forgetme.</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The privacy settings could not be loaded: {settings.error.message}
          </p>
        ) : settings.data ? (
          <PrivacyForm saved={settings.data} />
        ) : (
          <p className="text-muted-foreground text-sm">Loading privacy settings...</p>
        )}
      </CardContent>
    </Card>
  );
}

function PrivacyForm({ saved }: { saved: PrivacySettings }) {
  const queryClient = useQueryClient();
  const [addressDays, setAddressDays] = useState(String(saved.addressRetentionDays));
  const [messageDays, setMessageDays] = useState(String(saved.messageRetentionDays));

  const save = useMutation({
    mutationFn: (values: PrivacySettings) => apiRequest<PrivacySettings>("PUT", "/api/privacy-settings", values),
    onSuccess: (answer) => {
      queryClient.setQueryData(PRIVACY_KEY, answer);
      toast({ title: "Privacy settings saved" });
    },
    onError: (error) => toast({ title: "Failed to save privacy settings", description: describeError(error), variant: "destructive" }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    // The server checks the range and says which field is wrong; a blank field is sent as such.
    const days = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));
    save.mutate({ addressRetentionDays: days(addressDays), messageRetentionDays: days(messageDays) });
  }

  return (
    <form onSubmit={submit} className="space-y-5" aria-label="Privacy" noValidate>
      <div className="grid gap-5 md:grid-cols-2">
        <DaysField
          id="address-retention"
          label="Erase addresses after (days)"
          help="Counted from when an order is completed or failed. 0 keeps addresses."
          value={addressDays}
          onChange={setAddressDays}
        />
        <DaysField
          id="message-retention"
          label="Erase customer messages after (days)"
          help="Messages and your replies older than this. 0 keeps them."
          value={messageDays}
          onChange={setMessageDays}
        />
      </div>
      <Button type="submit" variant="outline" disabled={save.isPending}>
        <Save />
        {save.isPending ? "Saving..." : "Save Privacy Settings"}
      </Button>
    </form>
  );
}

/** A number of days, 0 to 3650, with its label and hint. */
function DaysField({ id, label, help, value, onChange }: { id: string; label: string; help: string; value: string; onChange: (value: string) => void }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="number"
        min={0}
        max={3650}
        inputMode="numeric"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-help`}
      />
      <p id={`${id}-help`} className="text-muted-foreground text-sm">
        {help}
      </p>
    </div>
  );
}
