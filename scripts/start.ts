import { ensureWebBuild } from "./build-web";

// `npm start`: build the web app first when it is missing or stale, so `npm install && npm start`
// just works; then the server, which serves the app and the API from one origin.
await ensureWebBuild();
await import("../server/main");
