import { Search } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { countOf } from "@/lib/utils";

export type PickerItem = { id: string; label: string };

/**
 * A searchable checkbox list (the products or the categories a coupon is limited to). The search
 * only narrows what is shown: ticked items stay ticked while hidden. Ids that are no longer in the
 * catalogue (a product deleted since) stay in the value and are counted apart, with a button to
 * remove them: dropping them silently would turn "this one product" into "every product" on the
 * next save; the owner chooses (the server refuses a save that still names them).
 */
export function EligiblePicker({
  legend,
  noun,
  items,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  legend: string;
  /** "product", "category": for "2 products selected". */
  noun: [singular: string, plural: string];
  /** Null while the catalogue loads. */
  items: PickerItem[] | null;
  value: string[];
  onChange: (ids: string[]) => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  const [search, setSearch] = useState("");
  const id = useId();
  const known = new Set((items ?? []).map((item) => item.id));
  const missing = items ? value.filter((itemId) => !known.has(itemId)).length : 0;
  const chosen = new Set(value);
  const needle = search.trim().toLocaleLowerCase();
  const shown = needle ? (items ?? []).filter((item) => item.label.toLocaleLowerCase().includes(needle)) : (items ?? []);
  const [singular, plural] = noun;

  const toggle = (itemId: string, checked: boolean) =>
    onChange(checked ? [...value, itemId] : value.filter((other) => other !== itemId));

  return (
    <fieldset className="min-w-0 space-y-2 rounded-md border p-3" aria-describedby={describedBy} aria-invalid={invalid || undefined}>
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="text-muted-foreground" data-testid={`${singular}-count`}>
          {value.length === 0 ? "None selected" : `${countOf(value.length, singular, plural)} selected`}
        </span>
        {value.length > 0 && (
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange([])}>
            Clear
          </Button>
        )}
      </div>
      {items && items.length > 6 && (
        <div className="relative">
          <Search className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2" aria-hidden="true" />
          <Input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder={`Search ${plural}`}
            aria-label={`Search ${plural}`}
            className="pl-8"
            autoComplete="off"
          />
        </div>
      )}
      {items === null ? (
        <p className="text-muted-foreground text-sm">Loading {plural}...</p>
      ) : items.length === 0 ? (
        <p className="text-muted-foreground text-sm">No {plural} yet</p>
      ) : shown.length === 0 ? (
        <p className="text-muted-foreground text-sm">No {plural} match</p>
      ) : (
        <ul className="max-h-44 space-y-1 overflow-y-auto pr-1">
          {shown.map((item) => {
            const checkboxId = `${id}-${item.id}`;
            return (
              <li key={item.id} className="flex items-center gap-2">
                <Checkbox id={checkboxId} checked={chosen.has(item.id)} onCheckedChange={(checked) => toggle(item.id, checked === true)} />
                <Label htmlFor={checkboxId} className="min-w-0 flex-1 py-1 font-normal [overflow-wrap:anywhere]">
                  {item.label}
                </Label>
              </li>
            );
          })}
        </ul>
      )}
      {missing > 0 && (
        <div className="flex items-center justify-between gap-2 text-sm">
          <span className="text-muted-foreground">{countOf(missing, `${singular} no longer in the catalogue`, `${plural} no longer in the catalogue`)}</span>
          <Button type="button" variant="outline" size="sm" onClick={() => onChange(value.filter((itemId) => known.has(itemId)))}>
            Remove
          </Button>
        </div>
      )}
    </fieldset>
  );
}
