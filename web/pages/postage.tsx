import { Plus, Truck } from "lucide-react";
import { useState } from "react";
import type { PostageOption } from "../../contract";
import { PostageDialog } from "@/components/postage/postage-dialog";
import { PostageCards, PostageTable } from "@/components/postage/postage-list";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { LoadingRows } from "@/components/loading-rows";
import { toast } from "@/hooks/use-toast";
import { useDeletePostageOption, usePostageOptions, useUpdatePostageOption } from "@/lib/queries";
import { describeError } from "@/lib/api";
import { DESKTOP_QUERY, useMediaQuery } from "@/lib/screen-helpers";

export default function PostagePage() {
  const optionsQuery = usePostageOptions();
  const updateOption = useUpdatePostageOption();
  const deleteOption = useDeletePostageOption();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<PostageOption | null>(null);
  const options = optionsQuery.data ?? [];

  const openCreate = () => {
    setEditing(null);
    setDialogOpen(true);
  };
  const openEdit = (option: PostageOption) => {
    setEditing(option);
    setDialogOpen(true);
  };
  const toggle = (option: PostageOption) => {
    updateOption.mutate(
      { id: option.id, data: { isActive: !option.isActive } },
      {
        onSuccess: () => toast({ title: "Postage option updated successfully!" }),
        onError: (error) =>
          toast({ title: "Failed to update postage option", description: describeError(error), variant: "destructive" }),
      },
    );
  };
  const remove = (option: PostageOption) => {
    if (!window.confirm("Are you sure you want to delete this postage option?")) return;
    deleteOption.mutate(option.id, {
      onSuccess: () => toast({ title: "Postage option deleted successfully!" }),
      onError: (error) =>
        toast({ title: "Failed to delete postage option", description: describeError(error), variant: "destructive" }),
    });
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight">Postage Options</h2>
          <p className="text-muted-foreground">Manage shipping methods and pricing for your store</p>
        </div>
        <Button onClick={openCreate}>
          <Plus />
          Add Postage Option
        </Button>
      </div>

      <Card className="py-0">
        <CardContent className="p-0">
          {optionsQuery.isLoading ? (
            <LoadingRows label="Loading postage options..." />
          ) : optionsQuery.isError ? (
            <p className="text-destructive py-12 text-center">{describeError(optionsQuery.error)}</p>
          ) : options.length === 0 ? (
            <div className="py-12 text-center">
              <Truck className="text-muted-foreground mx-auto mb-3 size-12" />
              <p className="font-medium">No postage options</p>
              <p className="text-muted-foreground text-sm">Add a shipping method customers can choose at checkout</p>
            </div>
          ) : isDesktop ? (
            <PostageTable options={options} onToggle={toggle} onEdit={openEdit} onDelete={remove} />
          ) : (
            <PostageCards options={options} onToggle={toggle} onEdit={openEdit} onDelete={remove} />
          )}
        </CardContent>
      </Card>

      <PostageDialog open={dialogOpen} onOpenChange={setDialogOpen} option={editing} />
    </div>
  );
}
