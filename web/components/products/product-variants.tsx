import { Plus, RotateCcw, Trash2, X } from "lucide-react";
import { useId, useState } from "react";
import { MAX_OPTION_VALUES, MAX_PRODUCT_OPTIONS, MAX_PRODUCT_VARIANTS } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { cn } from "@/lib/utils";
import { StaleStockAlert } from "./stale-stock-alert";
import {
  combinationKey,
  combinationsOf,
  newOptionKey,
  type OptionDraft,
  rowsOf,
  type VariantRow,
  type VariantsDraft,
  withEveryRow,
  withRow,
} from "./variant-drafts";

// The product dialog's "Options & variants" section (issue 23): up to 3 options with their values, and
// the table of variants made from their combinations. The state lives in the dialog (variant-drafts.ts
// says how it becomes the PUT body); this only shows it and reports each change.

const NO_IMAGE = "";
/** What each option's values might be, by its place (as the name placeholders suggest Size, Colour, Material). */
const VALUE_EXAMPLES = ["e.g., S, M, L", "e.g., Black, White", "e.g., Cotton, Linen"];

/** Why a value cannot be added to this option, or null. Mirrors the contract's checks (ProductOptionSchema). */
function valueProblem(option: OptionDraft, value: string): string | null {
  if (value === "") return null;
  if (value.length > 40) return "A value can be at most 40 characters.";
  if (/[/\n\r\t]/.test(value)) return "A value cannot hold a slash.";
  if (option.values.some((other) => other.toLowerCase() === value.toLowerCase())) return `${value} is already a value of this option.`;
  if (option.values.length >= MAX_OPTION_VALUES) return `An option can have at most ${MAX_OPTION_VALUES} values.`;
  return null;
}

function OptionEditor({
  option,
  index,
  onChange,
  onRemove,
}: {
  option: OptionDraft;
  index: number;
  onChange: (option: OptionDraft) => void;
  onRemove: () => void;
}) {
  const nameId = useId();
  const valueId = useId();
  const problemId = useId();
  const [typed, setTyped] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const shownName = option.name.trim() || `option ${index + 1}`;

  /** Adds the typed value(s): a comma list adds each. */
  const addTyped = () => {
    const values = typed
      .split(",")
      .map((value) => value.trim())
      .filter((value) => value !== "");
    let next = option;
    for (const value of values) {
      const why = valueProblem(next, value);
      if (why) {
        setProblem(why);
        onChange(next);
        setTyped(values.slice(values.indexOf(value)).join(", "));
        return;
      }
      next = { ...next, values: [...next.values, value] };
    }
    setProblem(null);
    setTyped("");
    onChange(next);
  };

  return (
    <li className="space-y-2 rounded-md border p-3" data-testid="variant-option">
      <div className="flex items-end gap-2">
        <div className="flex-1 space-y-1">
          <Label htmlFor={nameId} className="text-xs">
            Option {index + 1} name
          </Label>
          <Input
            id={nameId}
            value={option.name}
            placeholder={index === 0 ? "e.g., Size" : index === 1 ? "e.g., Colour" : "e.g., Material"}
            autoComplete="off"
            maxLength={40}
            onChange={(event) => onChange({ ...option, name: event.target.value })}
          />
        </div>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="text-destructive hover:text-destructive"
          aria-label={`Remove option ${shownName}`}
          onClick={onRemove}
        >
          <Trash2 />
        </Button>
      </div>
      {option.values.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label={`Values of ${shownName}`}>
          {option.values.map((value) => (
            <li key={value} className="bg-secondary text-secondary-foreground inline-flex items-center gap-1 rounded-full py-0.5 pr-1 pl-2.5 text-sm">
              <span className="[overflow-wrap:anywhere]">{value}</span>
              <button
                type="button"
                className="hover:bg-background/60 focus-visible:ring-ring flex size-6 items-center justify-center rounded-full focus-visible:ring-2 focus-visible:outline-none"
                aria-label={`Remove value ${value} from ${shownName}`}
                onClick={() => onChange({ ...option, values: option.values.filter((other) => other !== value) })}
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex items-end gap-2">
        <div className="flex-1 space-y-1">
          <Label htmlFor={valueId} className="text-xs">
            New values for {shownName}
          </Label>
          <Input
            id={valueId}
            value={typed}
            placeholder={VALUE_EXAMPLES[index] ?? VALUE_EXAMPLES[0]}
            autoComplete="off"
            aria-describedby={problem ? problemId : undefined}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => {
              setTyped(event.target.value);
              setProblem(null);
            }}
            onKeyDown={(event) => {
              // Enter adds the value(s) here instead of submitting the whole product.
              if (event.key === "Enter") {
                event.preventDefault();
                addTyped();
              }
            }}
          />
        </div>
        <Button type="button" variant="outline" onClick={addTyped} aria-label={`Add to ${shownName}`}>
          <Plus />
          Add
        </Button>
      </div>
      {problem && (
        <p id={problemId} className="text-destructive text-sm" role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}

/** "Set all stock" / "Set all prices": a labelled input and its Apply button. */
function SetAll({ label, placeholder, inputMode, step, onApply }: { label: string; placeholder: string; inputMode: "numeric" | "decimal"; step: string; onApply: (value: string) => void }) {
  const id = useId();
  const [value, setValue] = useState("");
  const apply = () => onApply(value.trim());
  return (
    <div className="flex items-end gap-2">
      <div className="space-y-1">
        <Label htmlFor={id} className="text-xs">
          {label}
        </Label>
        <Input
          id={id}
          type="number"
          min="0"
          step={step}
          inputMode={inputMode}
          placeholder={placeholder}
          className="w-32"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              apply();
            }
          }}
        />
      </div>
      <Button type="button" variant="outline" onClick={apply} aria-label={`Apply: ${label.toLowerCase()}`}>
        Apply
      </Button>
    </div>
  );
}

function VariantTableRow({
  row,
  productPrice,
  photos,
  onChange,
  onRemove,
}: {
  row: VariantRow;
  productPrice: string;
  photos: string[];
  onChange: (change: Partial<VariantRow>) => void;
  onRemove: () => void;
}) {
  const cell = "px-2 py-1.5 align-middle";
  // An image that is not among the product's photos (removed from them since) is still offered, as chosen.
  const strayImage = row.imageUrl !== null && !photos.includes(row.imageUrl);
  return (
    <tr className={cn("border-b last:border-b-0", !row.isActive && "text-muted-foreground")} data-testid="variant-row">
      {/* Stays in view while the row scrolls sideways on a phone: it says which variant the inputs are. */}
      <th scope="row" className={cn(cell, "bg-background sticky left-0 z-10 min-w-28 text-left font-medium [overflow-wrap:anywhere]")}>
        {row.label}
      </th>
      <td className={cell}>
        <Input aria-label={`SKU of ${row.label}`} value={row.sku} maxLength={64} autoComplete="off" className="h-8 min-w-24" onChange={(event) => onChange({ sku: event.target.value })} />
      </td>
      <td className={cell}>
        <Input
          aria-label={`Price of ${row.label}`}
          type="number"
          min="0"
          step="0.01"
          inputMode="decimal"
          placeholder={productPrice}
          value={row.price}
          className="h-8 w-24"
          onChange={(event) => onChange({ price: event.target.value })}
        />
      </td>
      <td className={cell}>
        <Input
          aria-label={`Stock of ${row.label}`}
          type="number"
          min="0"
          step="1"
          inputMode="numeric"
          value={row.stock}
          className="h-8 w-20"
          onChange={(event) => onChange({ stock: event.target.value })}
        />
      </td>
      <td className={cell}>
        <div className="flex items-center gap-1.5">
          <div className="bg-muted size-8 shrink-0 overflow-hidden rounded border">
            {row.imageUrl && <img src={row.imageUrl} alt="" className="size-full object-cover" />}
          </div>
          <select
            aria-label={`Image of ${row.label}`}
            value={row.imageUrl ?? NO_IMAGE}
            onChange={(event) => onChange({ imageUrl: event.target.value === NO_IMAGE ? null : event.target.value })}
            className="border-input bg-background focus-visible:border-ring focus-visible:ring-ring/50 h-8 rounded-md border px-1.5 text-sm outline-none focus-visible:ring-[3px]"
          >
            <option value={NO_IMAGE}>None</option>
            {photos.map((path, index) => (
              <option key={path} value={path}>
                Image {index + 1}
              </option>
            ))}
            {strayImage && <option value={row.imageUrl!}>Its own image</option>}
          </select>
        </div>
      </td>
      <td className={cell}>
        <Switch aria-label={`Active: ${row.label}`} checked={row.isActive} onCheckedChange={(isActive) => onChange({ isActive })} />
      </td>
      <td className={cn(cell, "text-right")}>
        <Button type="button" variant="ghost" size="icon" className="size-8" aria-label={`Remove variant ${row.label}`} onClick={onRemove}>
          <X />
        </Button>
      </td>
    </tr>
  );
}

export function ProductVariants({
  draft,
  onChange,
  productPrice,
  photos,
  problem,
  staleStock,
  onReloadStock,
  reloadingStock,
}: {
  draft: VariantsDraft;
  onChange: (draft: VariantsDraft) => void;
  /** The product's own price: a variant without one is sold at it. */
  productPrice: string;
  /** The product's photos, which a variant may show. */
  photos: string[];
  /** Why the set cannot be saved as it is (the contract's check), shown under the table. */
  problem: string | null;
  /** The server's 409 sentence, with the offer to reload the stock. */
  staleStock: string | null;
  onReloadStock: () => void;
  reloadingStock: boolean;
}) {
  const headingId = useId();
  const rows = rowsOf(draft);
  const leftOut = combinationsOf(draft.options).filter((combination) => draft.removed.includes(combinationKey(combination))).length;
  const setOption = (index: number, option: OptionDraft) => onChange({ ...draft, options: draft.options.map((o, i) => (i === index ? option : o)) });

  return (
    <section aria-labelledby={headingId} className="space-y-3 rounded-md border p-3" data-testid="variants-section">
      <div className="flex items-center justify-between gap-2">
        <div>
          <h3 id={headingId} className="text-sm font-medium">
            Options & variants
          </h3>
          <p className="text-muted-foreground text-xs">Sizes, colours...: each combination is a variant with its own stock, and optionally its own SKU, price and image.</p>
        </div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={draft.options.length >= MAX_PRODUCT_OPTIONS}
          onClick={() => onChange({ ...draft, options: [...draft.options, { key: newOptionKey(), name: "", values: [] }] })}
        >
          <Plus />
          Add Option
        </Button>
      </div>

      {draft.options.length === 0 ? (
        <p className="text-muted-foreground text-sm">No options: the product is sold in one kind.</p>
      ) : (
        <ul className="space-y-2">
          {draft.options.map((option, index) => (
            <OptionEditor
              key={option.key}
              option={option}
              index={index}
              onChange={(next) => setOption(index, next)}
              onRemove={() => onChange({ ...draft, options: draft.options.filter((_, i) => i !== index) })}
            />
          ))}
        </ul>
      )}

      {rows.length > 0 && (
        <>
          <div className="flex flex-wrap items-end gap-4">
            <SetAll label="Set all stock" placeholder="e.g., 10" inputMode="numeric" step="1" onApply={(stock) => stock !== "" && onChange(withEveryRow(draft, rows, { stock }))} />
            <SetAll label="Set all prices" placeholder={productPrice} inputMode="decimal" step="0.01" onApply={(price) => onChange(withEveryRow(draft, rows, { price }))} />
          </div>
          <div className="overflow-x-auto rounded-md border">
            <table className="w-full text-sm" aria-label="Variants">
              <thead>
                <tr className="bg-muted/50 border-b text-left">
                  <th scope="col" className="bg-background sticky left-0 z-10 px-2 py-2 font-medium">
                    Variant
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    SKU
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    Price (£)
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    Stock
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    Image
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    Active
                  </th>
                  <th scope="col" className="px-2 py-2">
                    <span className="sr-only">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <VariantTableRow
                    key={row.key}
                    row={row}
                    productPrice={productPrice}
                    photos={photos}
                    onChange={(change) => onChange(withRow(draft, row, change))}
                    onRemove={() => onChange({ ...draft, removed: [...draft.removed, row.key] })}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {leftOut > 0 && (
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <p className="text-muted-foreground">
            {leftOut === 1 ? "1 combination is left out." : `${leftOut} combinations are left out.`}
          </p>
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange({ ...draft, removed: [] })}>
            <RotateCcw />
            Add them back
          </Button>
        </div>
      )}
      {rows.length > MAX_PRODUCT_VARIANTS && (
        <p className="text-destructive text-sm">
          {rows.length} combinations: a product can have at most {MAX_PRODUCT_VARIANTS} variants. Remove some values or rows.
        </p>
      )}
      {problem && (
        <p className="text-destructive text-sm" role="alert" data-testid="variants-problem">
          {problem}
        </p>
      )}
      {staleStock && (
        <StaleStockAlert testId="stale-variant-stock" message={staleStock} reloadLabel="Reload variants" reloading={reloadingStock} onReload={onReloadStock} />
      )}
    </section>
  );
}
