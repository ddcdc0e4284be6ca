import { lazy, Suspense } from "react";
import { Route, Switch } from "wouter";
import { PACKING_SLIPS_PATH } from "@/components/orders/packing-slips-link";
import { Spinner } from "@/components/spinner";
import { OwnerKeysProvider } from "@/lib/owner-keys";

// What a signed-in browser loads: its own chunk, so the login screen carries none of it (the owner's
// keys and their WebCrypto code, issue 25's staff grants among them; the login screen's budget is
// 120 kB, e2e/layout.spec.ts). web/lib/preload-screen.ts starts loading it beside the session check.

const AuthenticatedApp = lazy(() => import("@/components/layout/authenticated-app"));
// A print view: outside the app's frame, so no sidebar or top bar on the screen or the paper.
const PackingSlipsPage = lazy(() => import("@/pages/packing-slips"));

export default function SignedInApp() {
  // The owner's unlocked keys (private addresses) live only while signed in: logging out unmounts them.
  return (
    <OwnerKeysProvider>
      <Suspense fallback={<Spinner className="min-h-screen" />}>
        <Switch>
          <Route path={PACKING_SLIPS_PATH} component={PackingSlipsPage} />
          <Route>
            <AuthenticatedApp />
          </Route>
        </Switch>
      </Suspense>
    </OwnerKeysProvider>
  );
}
