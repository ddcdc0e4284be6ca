import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

// The web app lives in web/ and is built into dist/web, which the server serves (server/http/web.ts):
// two entries, the owner's dashboard (web/index.html) and the customers' storefront Mini App
// (web/storefront/index.html, served at /shop/; issue 27), sharing only contract/ and the design tokens.
// In development (`npm run dev`, scripts/dev.ts) Vite serves it and proxies the API to the server.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? "5001"}`;

/** In development, /shop/ (and under it) is the storefront's page, as server/http/web.ts serves the build. */
const storefrontInDevelopment: Plugin = {
  name: "storefront-at-shop",
  configureServer(server) {
    server.middlewares.use((request, _response, next) => {
      if (request.url && /^\/shop(\/|\?|$)/.test(request.url)) request.url = "/storefront/index.html";
      next();
    });
  },
};

export default defineConfig({
  root: path.resolve(import.meta.dirname, "web"),
  plugins: [react(), tailwindcss(), storefrontInDevelopment],
  resolve: {
    alias: { "@": path.resolve(import.meta.dirname, "web") },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, "dist/web"),
    emptyOutDir: true,
    assetsDir: "assets",
    rolldownOptions: {
      input: {
        dashboard: path.resolve(import.meta.dirname, "web/index.html"),
        storefront: path.resolve(import.meta.dirname, "web/storefront/index.html"),
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: apiTarget },
      "/objects": { target: apiTarget },
    },
  },
});
