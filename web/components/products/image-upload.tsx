import { ImageIcon, Upload, X } from "lucide-react";
import { useId, useRef, useState } from "react";
import { MAX_IMAGE_BYTES } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { toast } from "@/hooks/use-toast";
import { useRequestUploadUrl, useSetProductImage } from "@/lib/queries";
import { describeError } from "@/lib/api";
import { uploadFile } from "@/lib/upload";

/**
 * One product image, uploaded in the three steps of docs/product.md §7: ask for an upload URL, PUT the bytes
 * there (with progress), then turn the URL into the object path that becomes the product's imageUrl.
 */
export function ImageUpload({
  value,
  onChange,
  onUploadingChange,
  subject = "Product",
}: {
  value: string | null;
  onChange: (imageUrl: string | null) => void;
  onUploadingChange?: (uploading: boolean) => void;
  /** Whose image it is, in its file input's name and its preview's alt text ("Broadcast image file"). */
  subject?: string;
}) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const requestUploadUrl = useRequestUploadUrl();
  const setProductImage = useSetProductImage();
  const [progress, setProgress] = useState<number | null>(null);

  const finish = () => {
    setProgress(null);
    onUploadingChange?.(false);
    if (inputRef.current) inputRef.current.value = "";
  };

  const upload = async (file: File) => {
    // Checked here too, so a big file is refused at once instead of after sending 5 MB.
    if (file.size > MAX_IMAGE_BYTES) {
      toast({
        title: "Upload failed",
        description: "The image is larger than 5 MB. Please choose a smaller file.",
        variant: "destructive",
      });
      if (inputRef.current) inputRef.current.value = "";
      return;
    }
    onUploadingChange?.(true);
    setProgress(0);

    let uploadURL: string;
    try {
      uploadURL = (await requestUploadUrl.mutateAsync()).uploadURL;
    } catch (error) {
      toast({ title: "Failed to get upload URL", description: describeError(error), variant: "destructive" });
      finish();
      return;
    }
    try {
      await uploadFile(uploadURL, file, setProgress);
    } catch (error) {
      toast({ title: "Upload failed", description: describeError(error), variant: "destructive" });
      finish();
      return;
    }
    try {
      const { objectPath } = await setProductImage.mutateAsync({ imageURL: uploadURL });
      onChange(objectPath);
      toast({ title: "Image uploaded successfully!" });
    } catch (error) {
      toast({ title: "Error processing upload", description: describeError(error), variant: "destructive" });
    }
    finish();
  };

  return (
    <div className="space-y-3">
      <div className="flex items-center gap-4">
        <div className="bg-muted flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-md border">
          {value ? (
            <img src={value} alt={`${subject} image preview`} className="size-full object-cover" />
          ) : (
            <ImageIcon className="text-muted-foreground size-8" aria-hidden="true" />
          )}
        </div>
        <div className="flex min-w-0 flex-col items-start gap-2">
          <input
            id={inputId}
            ref={inputRef}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            className="sr-only"
            aria-label={`${subject} image file`}
            data-testid="product-image-input"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void upload(file);
            }}
          />
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={progress !== null}
              onClick={() => inputRef.current?.click()}
            >
              <Upload />
              {value ? "Change Image" : "Upload Image"}
            </Button>
            {value && (
              <Button type="button" variant="ghost" size="sm" disabled={progress !== null} onClick={() => onChange(null)}>
                <X />
                Remove
              </Button>
            )}
          </div>
          <p className="text-muted-foreground text-xs">PNG or JPG, up to 5 MB</p>
        </div>
      </div>
      {progress !== null && (
        <div className="space-y-1" role="status">
          <Progress value={progress} aria-label="Upload progress" />
          <p className="text-muted-foreground text-xs">Uploading... {progress}%</p>
        </div>
      )}
    </div>
  );
}
