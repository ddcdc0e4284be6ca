import { lazy, Suspense } from "react";
import { Route, Switch } from "wouter";
import { Spinner } from "@/components/spinner";
import { TooltipProvider } from "@/components/ui/tooltip";
import { SidebarNav } from "./sidebar";
import { TopBar } from "./top-bar";

// One chunk per screen (React.lazy): a screen's code loads the first time it is opened.
const DashboardPage = lazy(() => import("@/pages/dashboard"));
const BotSettingsPage = lazy(() => import("@/pages/bot-settings"));
const CategoriesPage = lazy(() => import("@/pages/categories"));
const ProductsPage = lazy(() => import("@/pages/products"));
const PostagePage = lazy(() => import("@/pages/postage"));
const OrdersPage = lazy(() => import("@/pages/orders"));
const MessagesPage = lazy(() => import("@/pages/messages"));
const BotPreviewPage = lazy(() => import("@/pages/bot-preview"));
const NotFoundPage = lazy(() => import("@/pages/not-found"));

/** The signed-in shell: fixed sidebar on large screens, drawer on small ones, top bar, the screens. */
export default function AuthenticatedApp() {
  return (
    // Tooltips only exist behind the login, so their code stays out of the login's chunk.
    <TooltipProvider>
      <div className="bg-muted/40 min-h-screen">
        <aside className="bg-sidebar fixed inset-y-0 left-0 z-30 hidden w-64 border-r lg:block">
          <SidebarNav />
        </aside>
        <div className="flex min-h-screen flex-col lg:pl-64">
          <TopBar />
          <main className="flex-1 p-4 sm:p-6">
            <Suspense fallback={<Spinner className="py-24" />}>
              <Switch>
                <Route path="/" component={DashboardPage} />
                <Route path="/bot-settings" component={BotSettingsPage} />
                <Route path="/categories" component={CategoriesPage} />
                <Route path="/products" component={ProductsPage} />
                <Route path="/postage" component={PostagePage} />
                <Route path="/orders" component={OrdersPage} />
                <Route path="/messages" component={MessagesPage} />
                <Route path="/bot-preview" component={BotPreviewPage} />
                <Route component={NotFoundPage} />
              </Switch>
            </Suspense>
          </main>
        </div>
      </div>
    </TooltipProvider>
  );
}
