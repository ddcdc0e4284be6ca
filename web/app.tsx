import { lazy, Suspense } from "react";
import { Spinner } from "@/components/spinner";
import { useAuthStatus } from "@/lib/queries";
import LoginPage from "@/pages/login";

// Everything behind the login is its own chunk, so the login screen loads only what it needs.
const AuthenticatedApp = lazy(() => import("@/components/layout/authenticated-app"));

export default function App() {
  const { isLoading, isAuthenticated } = useAuthStatus();
  if (isLoading) return <Spinner className="min-h-screen" label="Checking your session" />;
  if (!isAuthenticated) return <LoginPage />;
  return (
    <Suspense fallback={<Spinner className="min-h-screen" />}>
      <AuthenticatedApp />
    </Suspense>
  );
}
