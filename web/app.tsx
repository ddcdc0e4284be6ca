import { lazy, Suspense, useEffect } from "react";
import { Route, Switch, useRoute } from "wouter";
import { PACKING_SLIPS_PATH } from "@/components/orders/packing-slips-link";
import { Spinner } from "@/components/spinner";
import { OwnerKeysProvider } from "@/lib/owner-keys";
import { preloadSignedInScreen, rememberSignedIn } from "@/lib/preload-screen";
import { useAuthStatus } from "@/lib/queries";
import LoginPage from "@/pages/login";

// Everything behind the login is its own chunk, so the login screen loads only what it needs.
const AuthenticatedApp = lazy(() => import("@/components/layout/authenticated-app"));
// A print view: outside the app's frame, so no sidebar or top bar on the screen or the paper.
const PackingSlipsPage = lazy(() => import("@/pages/packing-slips"));
// A staff invite's link (issue 25): public, outside the app's frame, whoever is signed in.
const InvitePage = lazy(() => import("@/pages/invite"));
const INVITE_PATH = "/invite/:token";

preloadSignedInScreen(window.location.pathname);

export default function App() {
  const { isLoading, isAuthenticated } = useAuthStatus();
  const [isInvite, invite] = useRoute(INVITE_PATH);
  useEffect(() => {
    if (!isLoading) rememberSignedIn(isAuthenticated);
  }, [isLoading, isAuthenticated]);
  if (isInvite) {
    return (
      <Suspense fallback={<Spinner className="min-h-screen" />}>
        <InvitePage token={invite.token} />
      </Suspense>
    );
  }
  if (isLoading) return <Spinner className="min-h-screen" label="Checking your session" />;
  if (!isAuthenticated) return <LoginPage />;
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
