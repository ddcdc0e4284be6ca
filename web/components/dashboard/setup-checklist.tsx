import { ArrowRight, CheckCircle2, Circle, ListChecks } from "lucide-react";
import { Link } from "wouter";
import type { SetupChecklist as SetupChecklistAnswer, SetupStepId } from "../../../contract";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { cn } from "@/lib/utils";

// The Dashboard's setup checklist (issue 22, item 8): what a new shop still lacks before a customer
// can buy, each step with its state and a link to the screen where it is done. The server decides
// the states (GET /api/dashboard/setup); the card is gone once every step is done.

/** Where the payment gateway's keys are typed: its card on Bot Settings (an id that page scrolls to). */
export const PAYMENT_GATEWAY_HREF = "/bot-settings#payment-gateway";

const STEP_TEXT: Record<SetupStepId, { title: string; hint: string; href: string; action: string }> = {
  "bot-token": {
    title: "Connect your Telegram bot",
    hint: "Paste the bot token @BotFather gave you.",
    href: "/bot-settings",
    action: "Open Bot Settings",
  },
  "payment-gateway": {
    title: "Set up payments",
    hint: "Enter your NOWPayments API key and IPN secret so customers can pay.",
    href: PAYMENT_GATEWAY_HREF,
    action: "Set up payments",
  },
  category: { title: "Add a category", hint: "Categories are the bot's menu of your shop.", href: "/categories", action: "Add a category" },
  product: {
    title: "Add a product",
    hint: "An active product with stock, so there is something to buy.",
    href: "/products",
    action: "Add a product",
  },
  postage: { title: "Add a postage option", hint: "Customers choose one at checkout.", href: "/postage", action: "Add postage" },
  "test-order": {
    title: "Place a test order",
    hint: "Order as a customer would, in the chat simulator on Bot Preview.",
    href: "/bot-preview",
    action: "Open the simulator",
  },
};

export function SetupChecklist({ checklist }: { checklist: SetupChecklistAnswer }) {
  if (checklist.complete) return null;
  const doneCount = checklist.steps.filter((step) => step.done).length;
  const total = checklist.steps.length;
  return (
    <Card data-testid="setup-checklist">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ListChecks className="text-muted-foreground size-5" />
          Set up your shop
        </CardTitle>
        <CardDescription>
          {doneCount === 0 ? "A few steps before your first customer can buy." : "Almost there: the steps left before customers can buy."}
        </CardDescription>
        <div className="flex items-center gap-3 pt-2">
          <Progress value={(doneCount / total) * 100} aria-label="Setup progress" className="max-w-xs" />
          <span className="text-muted-foreground text-sm whitespace-nowrap tabular-nums" data-testid="setup-progress">
            {`${doneCount} of ${total} done`}
          </span>
        </div>
      </CardHeader>
      <CardContent>
        <ol className="divide-y">
          {checklist.steps.map((step) => {
            const text = STEP_TEXT[step.id];
            return (
              <li
                key={step.id}
                data-testid={`setup-step-${step.id}`}
                data-done={step.done}
                className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="flex items-start gap-3">
                  {step.done ? (
                    <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-600 dark:text-green-400" aria-hidden />
                  ) : (
                    <Circle className="text-muted-foreground mt-0.5 size-5 shrink-0" aria-hidden />
                  )}
                  <div className="min-w-0">
                    <p className={cn("font-medium", step.done && "text-muted-foreground line-through")}>{text.title}</p>
                    <p className="text-muted-foreground text-sm">{text.hint}</p>
                  </div>
                </div>
                <div className="flex shrink-0 items-center gap-2 pl-8 sm:pl-0">
                  <Badge
                    variant="outline"
                    data-testid="setup-step-state"
                    className={step.done ? "border-green-200 bg-green-50 text-green-700 dark:border-green-900 dark:bg-green-950/40 dark:text-green-300" : undefined}
                  >
                    {step.done ? "Done" : "To do"}
                  </Badge>
                  {!step.done && (
                    <Button asChild variant="outline" size="sm">
                      <Link href={text.href}>
                        {text.action}
                        <ArrowRight />
                      </Link>
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
