import { LoaderCircle } from "lucide-react";
import { cn } from "@/lib/utils";

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <div role="status" aria-label={label} className={cn("flex items-center justify-center", className)}>
      <LoaderCircle className="text-muted-foreground size-8 animate-spin" />
    </div>
  );
}
