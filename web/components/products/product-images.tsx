import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { arrayMove, rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { GripVertical, ImageIcon, Upload, X } from "lucide-react";
import { useId, useLayoutEffect, useRef, useState } from "react";
import { MAX_IMAGE_BYTES, MAX_PRODUCT_IMAGES } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { toast } from "@/hooks/use-toast";
import { describeError } from "@/lib/api";
import { useRequestUploadUrl, useSetProductImage } from "@/lib/queries";
import { uploadFile } from "@/lib/upload";

// A product's photos (issue 23, docs/decisions/0033-product-photos.md): a row of thumbnails, the first
// the main image. Several files can be added at once, each uploaded in the three steps of
// docs/product.md §7 (upload URL, PUT the bytes, confirm the path), one after the other so the
// progress bar speaks of one file. A file that fails keeps its own error under the row; the others
// still go in. Reordering is by drag or by keyboard (dnd-kit: focus a handle, Space, arrows, Space).

/** The server's own sentence from an upload's "415: {"error": "..."}" (web/lib/upload.ts), else the error as it reads. */
function uploadErrorText(error: unknown): string {
  const text = describeError(error);
  const body = /^\d{3}: (\{.*\})$/s.exec(text)?.[1];
  if (!body) return text;
  try {
    const parsed: unknown = JSON.parse(body);
    const sentence = (parsed as { error?: unknown }).error;
    return typeof sentence === "string" ? sentence : text;
  } catch {
    return text;
  }
}

/** What the thumbnails are called to a screen reader, by their place in the row. */
const imageName = (index: number, total: number) => `Image ${index + 1} of ${total}`;

const announcements: Announcements = {
  onDragStart: ({ active }) => `Picked up ${String(active.data.current?.name ?? "the image")}. Use the arrow keys to move it, Space to drop it, Escape to cancel.`,
  onDragOver: ({ active, over }) =>
    over ? `${String(active.data.current?.name ?? "The image")} is over position ${Number(over.data.current?.sortable?.index ?? 0) + 1}.` : undefined,
  onDragEnd: ({ active, over }) =>
    over ? `${String(active.data.current?.name ?? "The image")} was dropped at position ${Number(over.data.current?.sortable?.index ?? 0) + 1}.` : undefined,
  onDragCancel: ({ active }) => `Moving ${String(active.data.current?.name ?? "the image")} was cancelled; it is back in its place.`,
};

function Thumbnail({
  path,
  index,
  total,
  disabled,
  onRemove,
}: {
  path: string;
  index: number;
  total: number;
  disabled: boolean;
  onRemove: () => void;
}) {
  const name = imageName(index, total);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: path,
    data: { name },
    disabled,
  });
  return (
    <li
      ref={setNodeRef}
      data-testid="product-image"
      data-path={path}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`bg-background relative flex w-24 flex-col gap-1 rounded-md border p-1 ${isDragging ? "z-10 shadow-lg" : ""}`}
    >
      <div className="bg-muted relative size-[5.5rem] overflow-hidden rounded">
        <img
          src={path}
          alt={total === 1 ? "Product image preview" : `Product image preview ${index + 1} of ${total}`}
          className="size-full object-cover"
        />
        {index === 0 && (
          <span className="bg-primary text-primary-foreground absolute bottom-0 left-0 right-0 px-1 py-0.5 text-center text-[0.7rem] font-medium">
            Main image
          </span>
        )}
      </div>
      <div className="flex items-center justify-between">
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`Move ${name.toLowerCase()}`}
          className="text-muted-foreground hover:text-foreground focus-visible:ring-ring flex size-8 cursor-grab touch-none items-center justify-center rounded focus-visible:ring-2 focus-visible:outline-none disabled:cursor-not-allowed"
        >
          <GripVertical className="size-4" aria-hidden="true" />
        </button>
        <Button type="button" variant="ghost" size="icon" className="size-8" disabled={disabled} aria-label={`Remove ${name.toLowerCase()}`} onClick={onRemove}>
          <X aria-hidden="true" />
        </Button>
      </div>
    </li>
  );
}

export function ProductImages({
  value,
  onChange,
  onUploadingChange,
}: {
  value: string[];
  onChange: (imageUrls: string[]) => void;
  onUploadingChange?: (uploading: boolean) => void;
}) {
  const inputId = useId();
  const instructionsId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // The latest list, for uploads that finish after a removal or a reorder made meanwhile.
  const latest = useRef(value);
  useLayoutEffect(() => {
    latest.current = value;
  });
  const requestUploadUrl = useRequestUploadUrl();
  const setProductImage = useSetProductImage();
  const [progress, setProgress] = useState<{ percent: number; file: number; files: number } | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  // dnd-kit's live region and instructions go inside the dialog: a modal dialog hides the rest of the page from screen readers.
  const [liveRegion, setLiveRegion] = useState<HTMLElement | null>(null);
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const busy = progress !== null;

  /** Uploads one file; answers its object path, or an error in the owner's words (also shown as a toast). */
  const uploadOne = async (file: File): Promise<string | { title: string; description: string }> => {
    // Checked here too, so a big file is refused at once instead of after sending 5 MB.
    if (file.size > MAX_IMAGE_BYTES) return { title: "Upload failed", description: "The image is larger than 5 MB. Please choose a smaller file." };
    let uploadURL: string;
    try {
      uploadURL = (await requestUploadUrl.mutateAsync()).uploadURL;
    } catch (error) {
      return { title: "Failed to get upload URL", description: describeError(error) };
    }
    try {
      await uploadFile(uploadURL, file, (percent) => setProgress((current) => (current ? { ...current, percent } : current)));
    } catch (error) {
      return { title: "Upload failed", description: uploadErrorText(error) };
    }
    try {
      return (await setProductImage.mutateAsync({ imageURL: uploadURL })).objectPath;
    } catch (error) {
      return { title: "Error processing upload", description: describeError(error) };
    }
  };

  const addFiles = async (files: File[]) => {
    if (inputRef.current) inputRef.current.value = "";
    const room = MAX_PRODUCT_IMAGES - latest.current.length;
    const taken = files.slice(0, Math.max(0, room));
    const fileErrors = files
      .slice(taken.length)
      .map((file) => `${file.name}: a product can have at most ${MAX_PRODUCT_IMAGES} images, so it was not added.`);
    setErrors(fileErrors);
    if (taken.length === 0) return;
    onUploadingChange?.(true);
    let added = 0;
    let lastFailure: { title: string; description: string } | null = null;
    for (const [i, file] of taken.entries()) {
      setProgress({ percent: 0, file: i + 1, files: taken.length });
      const result = await uploadOne(file);
      if (typeof result === "string") {
        latest.current = [...latest.current, result];
        onChange(latest.current);
        added += 1;
      } else {
        lastFailure = result;
        fileErrors.push(`${file.name}: ${result.description}`);
        setErrors([...fileErrors]);
      }
    }
    setProgress(null);
    onUploadingChange?.(false);
    // One toast at a time is shown (TOAST_LIMIT): a failure outranks the successes, which the row shows.
    if (lastFailure) toast({ ...lastFailure, variant: "destructive" });
    else if (added > 0) toast({ title: added === 1 ? "Image uploaded successfully!" : `${added} images uploaded successfully!` });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = value.indexOf(String(active.id));
    const to = value.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onChange(arrayMove(value, from, to));
  };

  const full = value.length >= MAX_PRODUCT_IMAGES;
  return (
    <div className="space-y-3">
      {value.length === 0 ? (
        <div className="bg-muted flex size-20 items-center justify-center rounded-md border">
          <ImageIcon className="text-muted-foreground size-8" aria-hidden="true" />
        </div>
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={onDragEnd}
          accessibility={{
            container: liveRegion ?? undefined,
            announcements,
            screenReaderInstructions: {
              draggable: "To move an image, press Space, then the arrow keys; Space again drops it, Escape cancels. The first image is the main one.",
            },
          }}
        >
          <SortableContext items={value} strategy={rectSortingStrategy}>
            <ul aria-label="Product images" aria-describedby={instructionsId} className="flex flex-wrap gap-2">
              {value.map((path, index) => (
                <Thumbnail
                  key={path}
                  path={path}
                  index={index}
                  total={value.length}
                  disabled={busy}
                  onRemove={() => onChange(value.filter((other) => other !== path))}
                />
              ))}
            </ul>
          </SortableContext>
        </DndContext>
      )}
      <div ref={setLiveRegion} />
      <p id={instructionsId} className="text-muted-foreground text-xs">
        PNG or JPG, up to 5 MB each, at most {MAX_PRODUCT_IMAGES}. The first is the main image: drag an image by its handle, or focus the handle and use Space and the arrow keys, to change the order.
      </p>
      <input
        id={inputId}
        ref={inputRef}
        type="file"
        multiple
        accept="image/png,image/jpeg,image/webp"
        className="sr-only"
        aria-label="Product image files"
        data-testid="product-image-input"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          if (files.length > 0) void addFiles(files);
        }}
      />
      <Button type="button" variant="outline" size="sm" disabled={busy || full} onClick={() => inputRef.current?.click()}>
        <Upload />
        {value.length === 0 ? "Upload Images" : full ? `${MAX_PRODUCT_IMAGES} images (the most)` : "Add Images"}
      </Button>
      {progress !== null && (
        <div className="space-y-1" role="status">
          <Progress value={progress.percent} aria-label="Upload progress" />
          <p className="text-muted-foreground text-xs">
            Uploading... {progress.percent}%{progress.files > 1 ? ` (image ${progress.file} of ${progress.files})` : ""}
          </p>
        </div>
      )}
      {errors.length > 0 && (
        <ul role="alert" data-testid="product-image-errors" className="text-destructive space-y-1 text-sm">
          {errors.map((error, i) => (
            <li key={i}>{error}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
