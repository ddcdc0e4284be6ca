const C = process.argv[2];
for (const u of ["/api/health", "/api/auth/status", "/api/dashboard/stats", "/api/orders?limit=50", "/api/products?limit=1"]) {
  const times = [];
  for (let i = 0; i < 60; i++) { const t = performance.now(); const r = await fetch("http://127.0.0.1:5077" + u, { headers: { cookie: C } }); await r.arrayBuffer(); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(u, "p50", times[30].toFixed(1), "min", times[0].toFixed(1));
}
