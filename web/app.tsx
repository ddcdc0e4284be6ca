import { lazy, Suspense, useEffect } from "react";
import { useRoute } from "wouter";
import { Spinner } from "@/components/spinner";
import { preloadSignedInScreen, rememberSignedIn } from "@/lib/preload-screen";
import { useAuthStatus } from "@/lib/queries";
import LoginPage from "@/pages/login";

// Everything behind the login is its own chunk, so the login screen loads only what it needs.
const SignedInApp = lazy(() => import("@/components/layout/signed-in-app"));
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
  return (
    <Suspense fallback={<Spinner className="min-h-screen" />}>
      <SignedInApp />
    </Suspense>
  );
}
