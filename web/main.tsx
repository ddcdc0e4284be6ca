// First of all: zod's settings must be in place before any schema of contract/ is built (web/zod-setup.ts).
import "./zod-setup";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Router } from "wouter";
import App from "./app";
import { Toaster } from "./components/ui/toaster";
import { createQueryClient } from "./lib/api";
import { startTheme } from "./lib/theme";
import { useGuardedLocation } from "./lib/unsaved-changes";
import "./index.css";

startTheme();
const queryClient = createQueryClient();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      {/* Moving to another screen asks first while a form holds unsaved changes (issue 22, item 3). */}
      <Router hook={useGuardedLocation}>
        <App />
      </Router>
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
);
