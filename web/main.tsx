// First of all: zod's settings must be in place before any schema of contract/ is built (web/zod-setup.ts).
import "./zod-setup";
import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import App from "./app";
import { Toaster } from "./components/ui/toaster";
import { createQueryClient } from "./lib/api";
import { startTheme } from "./lib/theme";
import "./index.css";

startTheme();
const queryClient = createQueryClient();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
      <Toaster />
    </QueryClientProvider>
  </StrictMode>,
);
