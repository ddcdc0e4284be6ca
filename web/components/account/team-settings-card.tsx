import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { UsersRound } from "lucide-react";
import type { TeamSettings } from "../../../contract";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { toast } from "@/hooks/use-toast";
import { apiRequest, describeError } from "@/lib/api";

// The owner's rule for the team (issue 25): staff without two-factor can then only turn it on.

const TEAM_SETTINGS_KEY = ["/api/team-settings"] as const;

export function TeamSettingsCard() {
  const queryClient = useQueryClient();
  const settings = useQuery<TeamSettings>({ queryKey: TEAM_SETTINGS_KEY });
  const save = useMutation({
    mutationFn: (value: TeamSettings) => apiRequest<TeamSettings>("PUT", "/api/team-settings", value),
    onSuccess: (answer) => {
      queryClient.setQueryData(TEAM_SETTINGS_KEY, answer);
      toast({ title: answer.requireTwoFactor ? "Staff must now use two-factor sign-in" : "Two-factor sign-in is optional for staff" });
    },
    onError: (error) => toast({ title: "Failed to save", description: describeError(error), variant: "destructive" }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UsersRound className="text-muted-foreground size-5" />
          Your team
        </CardTitle>
        <CardDescription>Rules for every staff account.</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isError ? (
          <p role="alert" className="text-destructive text-sm">
            The team's rules could not be loaded: {describeError(settings.error)}
          </p>
        ) : (
          <div className="flex items-start gap-3">
            <Switch
              id="require-two-factor"
              checked={settings.data?.requireTwoFactor ?? false}
              disabled={!settings.data || save.isPending}
              onCheckedChange={(checked) => save.mutate({ requireTwoFactor: checked })}
              aria-describedby="require-two-factor-help"
              className="mt-0.5"
            />
            <div className="grid gap-1">
              <Label htmlFor="require-two-factor">Require two-factor for all staff</Label>
              <p id="require-two-factor-help" className="text-muted-foreground text-sm">
                Staff without it can only turn it on under Your account until they do. Your own sign-in is up to you.
              </p>
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
