import type { Routes } from "./deps";

// TODO(issue 3): serve the built web app (dist/web) with index.html fallback for client routes.
export const webRoutes: Routes = () => {};
