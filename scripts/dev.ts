import { spawn } from "node:child_process";
import path from "node:path";
import { createServer } from "vite";

// `npm run dev`: the API server (reloading on change) on API_PORT, and Vite on PORT serving the web
// app with hot reload and proxying /api and /objects to the API (vite.config.ts).
const root = path.resolve(import.meta.dirname, "..");
const apiPort = process.env.API_PORT ?? "5001";
const webPort = Number(process.env.PORT ?? 5000);

const api = spawn(process.execPath, ["--import", "tsx", "--watch", "server/main.ts"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PORT: apiPort, HOST: "127.0.0.1", API_PORT: apiPort },
});

process.env.API_PORT = apiPort;
const vite = await createServer({ configFile: path.join(root, "vite.config.ts"), server: { port: webPort, host: process.env.HOST } });
await vite.listen();
vite.printUrls();

const stop = async () => {
  api.kill("SIGTERM");
  await vite.close();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
api.on("exit", (code) => {
  if (code !== null && code !== 0) console.error(`The API server exited with code ${code}.`);
});
