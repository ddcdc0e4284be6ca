import { Send } from "lucide-react";
import { useState } from "react";
import { MESSAGE_MAX_LENGTH, type Order } from "../../../contract";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/hooks/use-toast";
import { useSendMessage } from "@/lib/queries";
import { describeError } from "@/lib/api";
import { shortId } from "@/lib/screen-helpers";

type TemplateKey = "out-of-stock" | "shipping-delay" | "payment-verification" | "custom";

/** docs/product.md §5's four templates; each names the order by its first 8 characters. */
export const MESSAGE_TEMPLATES: { key: TemplateKey; label: string; text: (orderRef: string) => string }[] = [
  {
    key: "out-of-stock",
    label: "Out of Stock - Refund Processed",
    text: (ref) =>
      `Hello! Unfortunately, an item in your order #${ref} is out of stock. We have processed a full refund, which should reach you within 3-5 business days. We apologise for the inconvenience.`,
  },
  {
    key: "shipping-delay",
    label: "Shipping Delay",
    text: (ref) =>
      `Hello! Your order #${ref} is slightly delayed. We expect to dispatch it within 2-3 business days. Thank you for your patience.`,
  },
  {
    key: "payment-verification",
    label: "Payment Verification Needed",
    text: (ref) =>
      `Hello! We need to verify the payment for your order #${ref}. Your order is on hold until the payment is verified; please reply to this message so we can sort it out.`,
  },
  { key: "custom", label: "Custom Message", text: () => "" },
];

export function SendMessagePanel({ order }: { order: Order | null }) {
  const sendMessage = useSendMessage();
  const [template, setTemplate] = useState<TemplateKey | "">("");
  const [text, setText] = useState("");

  const chooseTemplate = (key: TemplateKey) => {
    setTemplate(key);
    const chosen = MESSAGE_TEMPLATES.find((t) => t.key === key);
    if (chosen && order) setText(chosen.text(shortId(order.id)));
  };

  const canSend = order !== null && text.trim() !== "" && !sendMessage.isPending;

  const send = () => {
    if (!order || text.trim() === "") return;
    sendMessage.mutate(
      {
        telegramUserId: order.telegramUserId,
        telegramUsername: order.telegramUsername,
        message: text.trim(),
        isFromCustomer: false,
        orderId: order.id,
        isRead: true,
      },
      {
        onSuccess: () => {
          toast({ title: "Message sent successfully!" });
          setText("");
          setTemplate("");
        },
        onError: (error) =>
          toast({ title: "Failed to send message", description: describeError(error), variant: "destructive" }),
      },
    );
  };

  return (
    <section className="space-y-3 rounded-lg border p-4" aria-labelledby="send-message-heading">
      <h3 id="send-message-heading" className="font-semibold">
        Send Message to Customer
      </h3>
      <div className="space-y-1.5">
        <Label htmlFor="message-template">Message Template</Label>
        <Select value={template} onValueChange={(value) => chooseTemplate(value as TemplateKey)}>
          <SelectTrigger id="message-template" className="w-full">
            <SelectValue placeholder="Choose a template" />
          </SelectTrigger>
          <SelectContent>
            {MESSAGE_TEMPLATES.map((t) => (
              <SelectItem key={t.key} value={t.key}>
                {t.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="customer-message">Message</Label>
        <Textarea
          id="customer-message"
          rows={4}
          placeholder="Type your message to the customer..."
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <div className="flex items-center justify-between gap-2">
          <p className="text-muted-foreground text-xs" aria-live="polite">
            {text.length}/{MESSAGE_MAX_LENGTH} characters
          </p>
          <Button type="button" size="sm" onClick={send} disabled={!canSend}>
            <Send />
            {sendMessage.isPending ? "Sending..." : "Send Message"}
          </Button>
        </div>
      </div>
    </section>
  );
}
