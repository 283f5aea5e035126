/**
 * better-sqlite3's prebuilt binary needs Node-API 10 (Node >= 22.14). On an older Node, loading it
 * kills the process with a bare SIGSEGV, so every module that loads it imports this one first and
 * the process stops with the cause and the fix instead.
 */
const napi = Number(process.versions.napi ?? 0);
if (napi < 10) {
  throw new Error(
    `This process runs Node ${process.version} (Node-API ${napi}); better-sqlite3 needs Node-API 10 (Node >= 22.14). ` +
      "Start it through the npm scripts (npm run dev, npm start, npm test), which run on the project's own Node 24 " +
      "from node_modules/.bin, or put Node 24 first on PATH.",
  );
}
export {};
