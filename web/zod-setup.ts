import { config } from "zod";

// The page runs under `script-src 'self'` without 'unsafe-eval' (docs/SECURITY.md, "Headers"). zod
// compiles object schemas with `new Function` unless told not to, and probes for it with
// `Function("")` when the contract's first object schema is built: the browser blocks the probe and
// reports a CSP violation on every page, though zod catches the error. Jitless, zod neither probes
// nor compiles. zod reads the setting as each schema is built, so this module must run before any
// module of contract/: web/main.tsx imports it first of all.
config({ jitless: true });
