// Peer: a bare node:http server answering a small JSON, what any Node server costs at the least
// on this machine. Compared with the shop's GET /api/health (which also asks the database `select 1`).
import http from "node:http";

const body = JSON.stringify({ status: "ok" });
const server = http.createServer((request, response) => {
  response.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(`LISTENING ${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
