import { lazy, Suspense, useEffect } from "react";
import { Route, Switch, useLocation } from "wouter";
import { LoadingRows } from "@/components/loading-rows";
import { TooltipProvider } from "@/components/ui/tooltip";
import { useArrivalAlerts } from "@/hooks/use-arrival-alerts";
import { useLiveUpdates } from "@/hooks/use-live-updates";
import { titleWithUnseen, useUnseenArrivals } from "@/lib/arrivals";
import { ACCOUNT_PATH, clearTwoFactorRequired, useTwoFactorRequired } from "@/lib/two-factor";
import { documentTitle } from "./nav";
import { HomeGuard, RoleGuard } from "./role-guard";
import { SignInAgainDialog } from "./sign-in-again-dialog";
import { SidebarNav } from "./sidebar";
import { StepUpDialog } from "./step-up-dialog";
import { TopBar } from "./top-bar";

// One chunk per screen (React.lazy): a screen's code loads the first time it is opened.
const DashboardPage = lazy(() => import("@/pages/dashboard"));
const BotSettingsPage = lazy(() => import("@/pages/bot-settings"));
const CategoriesPage = lazy(() => import("@/pages/categories"));
const ProductsPage = lazy(() => import("@/pages/products"));
const PostagePage = lazy(() => import("@/pages/postage"));
const CouponsPage = lazy(() => import("@/pages/coupons"));
const OrdersPage = lazy(() => import("@/pages/orders"));
const MessagesPage = lazy(() => import("@/pages/messages"));
const CustomersPage = lazy(() => import("@/pages/customers"));
const CustomerPage = lazy(() => import("@/pages/customer"));
const BroadcastsPage = lazy(() => import("@/pages/broadcasts"));
const BotPreviewPage = lazy(() => import("@/pages/bot-preview"));
const ActivityPage = lazy(() => import("@/pages/activity"));
const AccountPage = lazy(() => import("@/pages/account"));
const StaffPage = lazy(() => import("@/pages/staff"));
const NotFoundPage = lazy(() => import("@/pages/not-found"));

/** The signed-in shell: fixed sidebar on large screens, drawer on small ones, top bar, the screens. */
export default function AuthenticatedApp() {
  // New orders and messages show up on every screen without a reload (GET /api/events).
  useLiveUpdates();
  // ...and each new one is told: a toast, a count in the title until seen, a notification if allowed.
  useArrivalAlerts();
  const unseen = useUnseenArrivals();
  const [location, navigate] = useLocation();
  useEffect(() => {
    document.title = titleWithUnseen(documentTitle(location), unseen);
  }, [location, unseen]);
  // A staff account the owner requires to use two-factor can do nothing else until it turns it on
  // (403 twoFactorRequired): it is taken to Your account, whose banner says why (issue 25).
  const twoFactorRequired = useTwoFactorRequired();
  useEffect(() => {
    if (twoFactorRequired && location !== ACCOUNT_PATH) navigate(ACCOUNT_PATH, { replace: true });
  }, [twoFactorRequired, location, navigate]);
  // Signing out ends it: the next account to sign in here starts afresh.
  useEffect(() => clearTwoFactorRequired, []);
  return (
    // Tooltips only exist behind the login, so their code stays out of the login's chunk.
    <TooltipProvider>
      <div className="bg-muted/40 min-h-screen">
        {/* The first thing a keyboard reaches: straight past the sidebar and top bar. */}
        <a
          href="#main"
          className="bg-background text-foreground focus-visible:ring-ring sr-only z-50 rounded-md border px-4 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus-visible:ring-2"
          onClick={(event) => {
            event.preventDefault();
            document.getElementById("main")?.focus();
          }}
        >
          Skip to main content
        </a>
        <aside className="bg-sidebar fixed inset-y-0 left-0 z-30 hidden w-64 border-r lg:block">
          <SidebarNav />
        </aside>
        <div className="flex min-h-screen flex-col lg:pl-64">
          <TopBar />
          <main id="main" tabIndex={-1} className="flex-1 p-4 outline-none sm:p-6">
            <Suspense fallback={<LoadingRows label="Loading..." />}>
              {/* Each screen behind the permission its reads need (contract/team.ts, as the sidebar's entries): a
                  role without it is told so instead of shown a screen the server would refuse (issue 25). */}
              <Switch>
                <Route path="/">
                  <HomeGuard>
                    <DashboardPage />
                  </HomeGuard>
                </Route>
                <Route path="/bot-settings">
                  <RoleGuard permission="bot">
                    <BotSettingsPage />
                  </RoleGuard>
                </Route>
                <Route path="/categories">
                  <RoleGuard permission="catalogue">
                    <CategoriesPage />
                  </RoleGuard>
                </Route>
                <Route path="/products">
                  <RoleGuard permission="catalogue">
                    <ProductsPage />
                  </RoleGuard>
                </Route>
                <Route path="/postage">
                  <RoleGuard permission="catalogue">
                    <PostagePage />
                  </RoleGuard>
                </Route>
                <Route path="/coupons">
                  <RoleGuard permission="catalogue">
                    <CouponsPage />
                  </RoleGuard>
                </Route>
                <Route path="/orders">
                  <RoleGuard permission="orders.read">
                    <OrdersPage />
                  </RoleGuard>
                </Route>
                <Route path="/messages">
                  <RoleGuard permission="messages">
                    <MessagesPage />
                  </RoleGuard>
                </Route>
                <Route path="/customers">
                  <RoleGuard permission="customers.read">
                    <CustomersPage />
                  </RoleGuard>
                </Route>
                <Route path="/customers/:telegramUserId">
                  <RoleGuard permission="customers.read">
                    <CustomerPage />
                  </RoleGuard>
                </Route>
                <Route path="/broadcasts">
                  <RoleGuard permission="customers.manage">
                    <BroadcastsPage />
                  </RoleGuard>
                </Route>
                <Route path="/bot-preview">
                  <RoleGuard permission="bot">
                    <BotPreviewPage />
                  </RoleGuard>
                </Route>
                <Route path="/activity">
                  <RoleGuard permission="insights">
                    <ActivityPage />
                  </RoleGuard>
                </Route>
                <Route path={ACCOUNT_PATH} component={AccountPage} />
                <Route path="/staff">
                  <RoleGuard permission="staff">
                    <StaffPage />
                  </RoleGuard>
                </Route>
                <Route component={NotFoundPage} />
              </Switch>
            </Suspense>
          </main>
        </div>
      </div>
      <SignInAgainDialog />
      <StepUpDialog />
    </TooltipProvider>
  );
}
