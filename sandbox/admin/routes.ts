import type { RouteArea } from "../app";

/** The environment's admin landing page (the full admin shell and marketplace build on it). */
export const adminRoutes: RouteArea = (app, _ctx, env) => {
  app.get("/", (c) =>
    c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Platform Sandbox · ${env.name}</title></head>
<body><main><h1>Platform Sandbox · ${env.name}</h1>
<p>Environment <code>${env.openAppId}</code> at ${env.origin}</p></main></body></html>`),
  );
};
