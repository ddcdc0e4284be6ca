import { EditDeleteActions } from "@/components/edit-delete-actions";
import type { PostageOption } from "../../../contract";
import { Badge } from "@/components/ui/badge";
import { ClampedText, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatGBP } from "@/lib/screen-helpers";
import { cn, countOf } from "@/lib/utils";

type ListProps = {
  options: PostageOption[];
  onToggle: (option: PostageOption) => void;
  onEdit: (option: PostageOption) => void;
  onDelete: (option: PostageOption) => void;
};

const days = (option: PostageOption) => (option.estimatedDays != null ? countOf(option.estimatedDays, "day") : "-");

/** docs/product.md §2: clicking the badge switches the option between Active and Inactive. */
function StatusToggle({ option, onToggle }: { option: PostageOption; onToggle: ListProps["onToggle"] }) {
  return (
    <Badge
      asChild
      variant={option.isActive ? "default" : "secondary"}
      className={cn("cursor-pointer", option.isActive && "bg-green-700 text-white hover:bg-green-800")}
    >
      <button
        type="button"
        onClick={() => onToggle(option)}
        title={option.isActive ? "Click to deactivate" : "Click to activate"}
      >
        {option.isActive ? "Active" : "Inactive"}
      </button>
    </Badge>
  );
}

function Actions({ option, onEdit, onDelete }: { option: PostageOption } & Pick<ListProps, "onEdit" | "onDelete">) {
  return <EditDeleteActions name={option.name} onEdit={() => onEdit(option)} onDelete={() => onDelete(option)} />;
}

export function PostageTable({ options, onToggle, onEdit, onDelete }: ListProps) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead className="pl-4">Service Name</TableHead>
          <TableHead>Description</TableHead>
          <TableHead>Price</TableHead>
          <TableHead>Est. Days</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="pr-4 text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {options.map((option) => (
          <TableRow key={option.id} data-testid="postage-row">
            <TableCell wrap className="pl-4 font-medium">
              {option.name}
            </TableCell>
            <TableCell wrap className="text-muted-foreground max-w-xs">
              {option.description ? <ClampedText text={option.description} lines={2} /> : "-"}
            </TableCell>
            <TableCell>{formatGBP(option.price)}</TableCell>
            <TableCell>{days(option)}</TableCell>
            <TableCell>
              <StatusToggle option={option} onToggle={onToggle} />
            </TableCell>
            <TableCell className="pr-4">
              <Actions option={option} onEdit={onEdit} onDelete={onDelete} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function PostageCards({ options, onToggle, onEdit, onDelete }: ListProps) {
  return (
    <ul className="divide-y">
      {options.map((option) => (
        <li key={option.id} className="space-y-1 p-4" data-testid="postage-card">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0 flex-1">
              <p className="font-medium [overflow-wrap:anywhere]">{option.name}</p>
              <p className="text-muted-foreground text-sm [overflow-wrap:anywhere]">{option.description || "-"}</p>
            </div>
            <Actions option={option} onEdit={onEdit} onDelete={onDelete} />
          </div>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <span className="font-medium">{formatGBP(option.price)}</span>
            <span className="text-muted-foreground">Est. {days(option)}</span>
            <StatusToggle option={option} onToggle={onToggle} />
          </div>
        </li>
      ))}
    </ul>
  );
}
