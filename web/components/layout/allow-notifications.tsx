import { BellRing } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { askNotificationPermission, notificationState } from "@/lib/arrivals";

/**
 * "Allow notifications" in the top bar (issue 22, item 9): the browser's permission prompt opens
 * only from this click, never on load. Shown while the browser has not been asked; once the owner
 * answered (allowed or blocked), the browser keeps the choice and the button goes.
 */
export function AllowNotifications() {
  const [state, setState] = useState(notificationState);
  // The owner may answer elsewhere too (the paid-order alerts' switch, the browser's site settings).
  useEffect(() => {
    let status: PermissionStatus | null = null;
    const update = () => setState(notificationState());
    navigator.permissions
      ?.query({ name: "notifications" })
      .then((answer) => {
        status = answer;
        answer.addEventListener("change", update);
      })
      .catch(() => {});
    return () => status?.removeEventListener("change", update);
  }, []);
  if (state !== "default") return null;
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      aria-label="Allow notifications"
      title="Get a browser notification for each new order and customer message"
      onClick={() => void askNotificationPermission().then(setState)}
    >
      <BellRing />
      <span className="hidden sm:inline">Allow notifications</span>
    </Button>
  );
}
