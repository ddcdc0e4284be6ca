import { buildServer, SERVER_BUNDLE } from "./build-server";
import { buildWeb } from "./build-web";

// `npm run build`: the web app into dist/web (Vite) and the server into dist/server/main.js
// (esbuild). `npm start` (scripts/start.mjs) runs this in its own process when dist/ is stale.
const started = Date.now();
await buildWeb();
await buildServer();
console.log(`Server bundle: ${SERVER_BUNDLE}. Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
