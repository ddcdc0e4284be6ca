import { Pencil, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/** The pencil and bin buttons of a list row; their labels name the row for screen readers and tests. */
export function EditDeleteActions({
  name,
  onEdit,
  onDelete,
  className,
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
  className?: string;
}) {
  return (
    <div className={cn("flex justify-end gap-1", className)}>
      <Button variant="ghost" size="icon" onClick={onEdit} aria-label={`Edit ${name}`}>
        <Pencil />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="text-destructive hover:text-destructive"
        onClick={onDelete}
        aria-label={`Delete ${name}`}
      >
        <Trash2 />
      </Button>
    </div>
  );
}
