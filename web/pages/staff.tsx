import { Link2, MonitorSmartphone, Trash2, UserPlus, Users } from "lucide-react";
import { useState } from "react";
import { ROLE_LABELS, roleCan, STAFF_ROLES, type StaffMember, type StaffRole, type StaffStatus } from "../../contract";
import { SessionsCard } from "@/components/account/sessions-card";
import { LoadingRows } from "@/components/loading-rows";
import { InviteDialog } from "@/components/staff/invite-dialog";
import { InviteLinkField } from "@/components/staff/invite-link";
import { useDeleteStaff, useNewInviteLink, useStaff, useUpdateStaff } from "@/components/staff/queries";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/hooks/use-toast";
import { describeError } from "@/lib/api";
import { formatAge, formatDateTime } from "@/lib/dates";
import { useAuthStatus } from "@/lib/queries";
import { DESKTOP_QUERY, useMediaQuery } from "@/lib/screen-helpers";

// The Staff screen (issue 25): who can sign in to this back office, with which role; the owner
// invites people, changes roles, disables, deletes, makes a new invite link, and ends sessions.
// The owner's own row is shown and never changed here. Every refusal is the server's sentence.

const STATUS_LABELS: Record<StaffStatus, string> = { invited: "Invited", active: "Active", disabled: "Disabled" };
// Solid colours with white text (as the coupons' state badge): readable in the light and dark theme.
const STATUS_STYLES: Record<StaffStatus, string> = { active: "border-transparent bg-green-700 text-white", invited: "", disabled: "" };
const STATUS_VARIANTS: Record<StaffStatus, "default" | "secondary" | "outline"> = { active: "default", invited: "outline", disabled: "secondary" };

type Actions = {
  onRole: (member: StaffMember, role: StaffRole) => void;
  onEnabled: (member: StaffMember, enabled: boolean) => void;
  onSessions: (member: StaffMember) => void;
  onNewLink: (member: StaffMember) => void;
  onDelete: (member: StaffMember) => void;
};

function StatusBadge({ member }: { member: StaffMember }) {
  return (
    <Badge variant={STATUS_VARIANTS[member.status]} className={STATUS_STYLES[member.status]} data-testid="staff-status">
      {STATUS_LABELS[member.status]}
    </Badge>
  );
}

/** The latest use of any open session; none open: "Never" for an invite, else "—" (ended sessions leave no trace). */
function LastSeen({ member }: { member: StaffMember }) {
  if (!member.lastSeenAt) return <span className="text-muted-foreground">{member.status === "invited" ? "Never" : "—"}</span>;
  return (
    <time dateTime={member.lastSeenAt} title={formatDateTime(member.lastSeenAt)}>
      {formatAge(member.lastSeenAt)}
    </time>
  );
}

function RoleCell({ member, onRole }: { member: StaffMember } & Pick<Actions, "onRole">) {
  if (member.role === "owner") return <span className="font-medium">{ROLE_LABELS.owner}</span>;
  return (
    <Select value={member.role} onValueChange={(role) => onRole(member, role as StaffRole)}>
      <SelectTrigger className="w-32" aria-label={`Role of ${member.name}`}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {STAFF_ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {ROLE_LABELS[role]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

function EnabledSwitch({ member, onEnabled }: { member: StaffMember } & Pick<Actions, "onEnabled">) {
  if (member.role === "owner") return null;
  return (
    <Switch checked={member.status !== "disabled"} onCheckedChange={(checked) => onEnabled(member, checked)} aria-label={`${member.name} can sign in`} />
  );
}

function RowActions({ member, onSessions, onNewLink, onDelete }: { member: StaffMember } & Pick<Actions, "onSessions" | "onNewLink" | "onDelete">) {
  return (
    <div className="flex flex-wrap justify-end gap-1">
      {member.status === "invited" && (
        <Button variant="outline" size="sm" onClick={() => onNewLink(member)} aria-label={`New invite link for ${member.name}`}>
          <Link2 />
          New invite link
        </Button>
      )}
      <Button variant="outline" size="sm" onClick={() => onSessions(member)} aria-label={`Sessions of ${member.name}`}>
        <MonitorSmartphone />
        Sessions
      </Button>
      {member.role !== "owner" && (
        <Button variant="ghost" size="icon" className="text-destructive hover:text-destructive" onClick={() => onDelete(member)} aria-label={`Delete ${member.name}`}>
          <Trash2 />
        </Button>
      )}
    </div>
  );
}

function StaffTable({ staff, actions }: { staff: StaffMember[]; actions: Actions }) {
  return (
    <Table scrollLabel="Staff">
      <TableHeader>
        <TableRow>
          <TableHead className="pl-4">Name</TableHead>
          <TableHead>Username</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>2FA</TableHead>
          <TableHead>Last seen</TableHead>
          <TableHead>Can sign in</TableHead>
          <TableHead className="pr-4 text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {staff.map((member) => (
          <TableRow key={member.id} data-testid="staff-row">
            <TableCell wrap className="max-w-56 pl-4 font-medium [overflow-wrap:anywhere]">
              {member.name}
            </TableCell>
            <TableCell className="font-mono">{member.username}</TableCell>
            <TableCell>
              <RoleCell member={member} onRole={actions.onRole} />
            </TableCell>
            <TableCell>
              <StatusBadge member={member} />
            </TableCell>
            <TableCell>{member.totpEnabled ? "On" : <span className="text-muted-foreground">Off</span>}</TableCell>
            <TableCell>
              <LastSeen member={member} />
            </TableCell>
            <TableCell>
              <EnabledSwitch member={member} onEnabled={actions.onEnabled} />
            </TableCell>
            <TableCell className="pr-4">
              <RowActions member={member} {...actions} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function StaffCards({ staff, actions }: { staff: StaffMember[]; actions: Actions }) {
  return (
    <ul className="divide-y">
      {staff.map((member) => (
        <li key={member.id} className="space-y-3 p-4" data-testid="staff-card">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0 space-y-1">
              <div className="flex flex-wrap items-center gap-2">
                <p className="font-medium [overflow-wrap:anywhere]">{member.name}</p>
                <StatusBadge member={member} />
              </div>
              <p className="text-muted-foreground font-mono text-sm [overflow-wrap:anywhere]">{member.username}</p>
            </div>
          </div>
          <dl className="text-muted-foreground grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-2 text-sm">
            <dt>Role</dt>
            <dd className="text-foreground">
              <RoleCell member={member} onRole={actions.onRole} />
            </dd>
            <dt>2FA</dt>
            <dd className="text-foreground">{member.totpEnabled ? "On" : "Off"}</dd>
            <dt>Last seen</dt>
            <dd className="text-foreground">
              <LastSeen member={member} />
            </dd>
          </dl>
          <div className="flex flex-wrap items-center justify-between gap-2">
            {member.role === "owner" ? (
              <span />
            ) : (
              <div className="flex items-center gap-2 text-sm">
                <EnabledSwitch member={member} onEnabled={actions.onEnabled} />
                <span aria-hidden="true">Can sign in</span>
              </div>
            )}
            <RowActions member={member} {...actions} />
          </div>
        </li>
      ))}
    </ul>
  );
}

export default function StaffPage() {
  const auth = useAuthStatus();
  const isOwner = auth.data?.account?.role === "owner";
  const staffQuery = useStaff(isOwner);
  const updateStaff = useUpdateStaff();
  const deleteStaff = useDeleteStaff();
  const newInviteLink = useNewInviteLink();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const [inviting, setInviting] = useState(false);
  // Each dialog keeps its account while it fades out, so its title keeps the name.
  const [sessionsOf, setSessionsOf] = useState<StaffMember | null>(null);
  const [sessionsOpen, setSessionsOpen] = useState(false);
  const [deleting, setDeleting] = useState<StaffMember | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [renewed, setRenewed] = useState<{ name: string; inviteUrl: string } | null>(null);
  const [renewedOpen, setRenewedOpen] = useState(false);
  const staff = staffQuery.data ?? [];

  const refused = (title: string) => (error: unknown) => toast({ title, description: describeError(error), variant: "destructive" });
  const actions: Actions = {
    onRole: (member, role) =>
      updateStaff.mutate(
        { id: member.id, patch: { role } },
        {
          onSuccess: () =>
            toast({
              title: `${member.name} is now ${ROLE_LABELS[role]}`,
              // A role that cannot read addresses takes any access to sealed addresses with it (docs/decisions/0037).
              description:
                roleCan(member.role, "orders.addresses") && !roleCan(role, "orders.addresses")
                  ? "Their open sessions were ended, and any access to sealed addresses was revoked."
                  : "Their open sessions were ended.",
            }),
          onError: refused("Could not change the role"),
        },
      ),
    onEnabled: (member, enabled) =>
      updateStaff.mutate(
        { id: member.id, patch: { disabled: !enabled } },
        {
          onSuccess: () =>
            toast(enabled ? { title: `${member.name} can sign in again` } : { title: `${member.name} is disabled`, description: "They were signed out everywhere." }),
          onError: refused(enabled ? "Could not enable the account" : "Could not disable the account"),
        },
      ),
    onSessions: (member) => {
      setSessionsOf(member);
      setSessionsOpen(true);
    },
    onNewLink: (member) =>
      newInviteLink.mutate(member.id, {
        onSuccess: ({ inviteUrl }) => {
          setRenewed({ name: member.name, inviteUrl });
          setRenewedOpen(true);
        },
        onError: refused("Could not make a new invite link"),
      }),
    onDelete: (member) => {
      setDeleting(member);
      setConfirmOpen(true);
    },
  };
  const remove = (member: StaffMember) =>
    deleteStaff.mutate(member.id, { onSuccess: () => toast({ title: "Account deleted", description: member.name }), onError: refused("Could not delete the account") });

  if (auth.data && !isOwner) {
    return <p className="text-muted-foreground py-12 text-center">Only the shop's owner can manage staff.</p>;
  }
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Staff</h2>
          <p className="text-muted-foreground">Who can sign in to this back office, and what each may do</p>
        </div>
        <Button onClick={() => setInviting(true)}>
          <UserPlus />
          Invite staff
        </Button>
      </div>

      <Card className="py-0">
        <CardContent className="p-0">
          {staffQuery.isLoading || auth.isLoading ? (
            <LoadingRows label="Loading staff..." />
          ) : staffQuery.isError ? (
            <p className="text-destructive py-12 text-center">{describeError(staffQuery.error)}</p>
          ) : isDesktop ? (
            <StaffTable staff={staff} actions={actions} />
          ) : (
            <StaffCards staff={staff} actions={actions} />
          )}
          {staff.length === 1 && (
            <div className="border-t py-8 text-center">
              <Users className="text-muted-foreground mx-auto mb-3 size-10" aria-hidden="true" />
              <p className="font-medium">No staff yet</p>
              <p className="text-muted-foreground text-sm">Invite the people who pack orders or answer customers: each gets their own sign-in.</p>
            </div>
          )}
        </CardContent>
      </Card>

      <InviteDialog open={inviting} onOpenChange={setInviting} />

      <Dialog open={sessionsOpen} onOpenChange={setSessionsOpen}>
        <DialogContent className="sm:max-w-lg">
          <DialogHeader>
            <DialogTitle>Sessions of {sessionsOf?.name}</DialogTitle>
            <DialogDescription>Ending a session signs that browser out at its next click.</DialogDescription>
          </DialogHeader>
          {sessionsOf && (
            // The owner's own row shows this account's list, with "End all other sessions".
            <SessionsCard
              accountId={sessionsOf.role === "owner" ? undefined : sessionsOf.id}
              title="Signed in on"
              className="border-0 py-0 shadow-none [&>[data-slot=card-content]]:px-0 [&>[data-slot=card-header]]:px-0"
            />
          )}
        </DialogContent>
      </Dialog>

      <Dialog open={renewedOpen} onOpenChange={setRenewedOpen}>
        <DialogContent className="sm:max-w-lg">
          <DialogHeader>
            <DialogTitle>New invite link</DialogTitle>
            <DialogDescription>Earlier links for {renewed?.name} no longer work.</DialogDescription>
          </DialogHeader>
          {renewed && <InviteLinkField url={renewed.inviteUrl} name={renewed.name} />}
          <DialogFooter>
            <Button onClick={() => setRenewedOpen(false)}>Done</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <AlertDialog open={confirmOpen} onOpenChange={setConfirmOpen}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {deleting?.name}'s account?</AlertDialogTitle>
            <AlertDialogDescription>
              They are signed out everywhere and can no longer sign in. The activity log keeps what they did, under their username. To stop them for a
              while instead, switch off "Can sign in".
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: "destructive" })}
              onClick={() => {
                if (deleting) remove(deleting);
              }}
            >
              Delete account
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
