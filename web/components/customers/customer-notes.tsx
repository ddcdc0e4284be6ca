import { Check, NotebookPen } from "lucide-react";
import { useState } from "react";
import { CUSTOMER_NOTE_MAX } from "../../../contract";
import { useCustomerNote, useSaveCustomerNote } from "@/components/customers/queries";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/hooks/use-toast";
import { useCan } from "@/lib/account";
import { describeError } from "@/lib/api";
import { formatDateTime } from "@/lib/screen-helpers";
import { useUnsavedChanges } from "@/lib/unsaved-changes";

// The owner's note about a customer (issue 22 item 9; docs/decisions/0029-customer-notes.md), beside
// the conversation and on the customer's page: one text, saved whole. Unsaved typing is guarded
// (web/lib/unsaved-changes.ts) and survives a live reload of the note; a save that meets an ended
// session asks to sign in again and is sent again (apiRequest), the text kept meanwhile.

/** Typed and not saved, per customer: moving to another conversation and back finds it again. */
const drafts = new Map<string, string>();

/** Characters as the server counts them (code points: an emoji is one). */
const characters = (text: string) => [...text.trim()].length;

export function CustomerNotes({ telegramUserId }: { telegramUserId: string }) {
  const query = useCustomerNote(telegramUserId);
  const save = useSaveCustomerNote(telegramUserId);
  // Support reads the note; writing it is "customers.manage" (contract/team.ts).
  const canEdit = useCan("customers.manage");
  // null while the owner has not typed: the box then shows the stored note as it reloads.
  const [draft, setDraftState] = useState<string | null>(() => drafts.get(telegramUserId) ?? null);
  const stored = query.data?.note ?? "";
  const text = draft ?? stored;
  const dirty = canEdit && draft !== null && draft !== stored;
  const length = characters(text);
  const tooLong = length > CUSTOMER_NOTE_MAX;
  useUnsavedChanges(dirty);

  const setDraft = (next: string | null) => {
    if (next === null) drafts.delete(telegramUserId);
    else drafts.set(telegramUserId, next);
    setDraftState(next);
  };

  const submit = async () => {
    if (!dirty || tooLong || save.isPending) return;
    try {
      const saved = await save.mutateAsync(text);
      // What the owner typed since pressing Save stays theirs to save.
      setDraft(drafts.get(telegramUserId) === text ? null : (drafts.get(telegramUserId) ?? null));
      toast({ title: saved.note === "" ? "Note cleared" : "Note saved" });
    } catch (error) {
      toast({ title: "Failed to save note", description: describeError(error), variant: "destructive" });
    }
  };

  const status = save.isPending
    ? "Saving..."
    : dirty
      ? "Unsaved changes"
      : query.data?.updatedAt
        ? `Saved ${formatDateTime(query.data.updatedAt)}`
        : null;
  const fieldId = `customer-note-${telegramUserId}`;

  return (
    <Card className="gap-0 py-0" data-testid="customer-notes" aria-label="Notes about this customer">
      <div className="flex items-center gap-2 border-b px-4 py-3">
        <NotebookPen className="text-muted-foreground size-4" aria-hidden="true" />
        <h3 className="font-semibold">
          <label htmlFor={fieldId}>Notes</label>
        </h3>
      </div>
      <form
        className="space-y-2 p-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {query.data?.unreadable && !dirty && (
          <p className="text-destructive text-sm" role="status">
            The saved note could not be decrypted. Saving a new one replaces it.
          </p>
        )}
        {query.isError && <p className="text-destructive text-sm">{describeError(query.error)}</p>}
        <Textarea
          id={fieldId}
          // A note in Arabic or Hebrew reads right to left, as the owner typed it.
          dir="auto"
          rows={4}
          className="max-h-72 min-h-24"
          value={text}
          disabled={query.isLoading}
          readOnly={!canEdit}
          placeholder={query.isLoading ? "Loading note..." : canEdit ? "Only you see this: preferences, what was agreed..." : "No note"}
          aria-invalid={tooLong || undefined}
          aria-describedby={canEdit ? `${fieldId}-count` : undefined}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            // Ctrl+Enter (or Cmd+Enter) saves, as a reply box would send; Enter alone is a new line.
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              void submit();
            }
          }}
        />
        {canEdit && (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p id={`${fieldId}-count`} className={tooLong ? "text-destructive text-xs" : "text-muted-foreground text-xs"}>
              {length} / {CUSTOMER_NOTE_MAX} characters
            </p>
            <div className="ml-auto flex items-center gap-3">
              {status && (
                <span className="text-muted-foreground inline-flex items-center gap-1 text-xs" data-testid="customer-note-status" aria-live="polite">
                  {!dirty && !save.isPending && <Check className="size-3" aria-hidden="true" />}
                  {status}
                </span>
              )}
              <Button type="submit" size="sm" disabled={!dirty || tooLong || save.isPending}>
                Save
              </Button>
            </div>
          </div>
        )}
      </form>
    </Card>
  );
}
