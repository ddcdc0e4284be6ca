import { useId } from "react";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

/**
 * "Sort by" for a server-paged list whose sort lives in the URL: choosing the default takes the
 * parameter out of the URL (`null`), so a plain link to the screen and its default look the same.
 */
export function SortSelect<S extends string>({
  value,
  options,
  labels,
  defaultValue,
  onChange,
  className,
}: {
  value: S;
  options: readonly S[];
  labels: Record<S, string>;
  defaultValue: S;
  onChange: (sort: S | null) => void;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={className}>
      <Label htmlFor={id}>Sort by</Label>
      <Select value={value} onValueChange={(next) => onChange(next === defaultValue ? null : (next as S))}>
        <SelectTrigger id={id} className="w-full">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option} value={option}>
              {labels[option]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
