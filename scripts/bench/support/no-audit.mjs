// Benchmark only (scripts/bench/audit-cost.ts): preloaded into the app with NODE_OPTIONS, it makes the
// process's audit sink slot (lib/process-state.ts, lib/http/audit-hook.ts) hold nothing whatever is
// set into it, so the app runs exactly as it does, without recording.
Object.defineProperty(globalThis, Symbol.for("engage-console.audit-sink"), { get: () => undefined, set: () => {}, configurable: false });
