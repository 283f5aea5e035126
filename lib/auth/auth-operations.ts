import "server-only";
import { z } from "zod";
import { answer, defineOperations, int } from "@/lib/http/define-operations";
import type { ConsoleSessionInfo } from "./session";

/** The schemas of the authorization flow's and the session's routes (the list: lib/http/app-routes.ts). */

export const authOperations = defineOperations({
  "auth.callback": {
    summary: "The registered authorization callback (§5.2, §5.3): the install entry or the authorization return; answers an HTML page",
    query: z.looseObject({ code: z.string().optional(), timestamp: z.string().optional(), hmac: z.string().optional(), state: z.string().optional(), redirectUrl: z.string().optional(), getOpenAppIdToken: z.string().optional() }),
  },
  "auth.callbackReturn": { summary: "The return page's same-origin post: the code is exchanged only here, with the browser's proof" },
  "auth.start": {
    summary: "Starts authorization of an environment (§5.2.9); without openAppId, the home page's chooser",
    query: z.looseObject({ openAppId: z.string().optional(), returnTo: z.string().optional() }),
  },
  "auth.logout": { summary: "Signs out (revokes the sign-in; everywhere=1: every sign-in of the user)", query: z.looseObject({ everywhere: z.string().optional() }) },
  "auth.session": {
    summary: "The console's session (ids and names, no token) and whether the installation needs re-authorization",
    output: answer<ConsoleSessionInfo>(z.object({ session: z.looseObject({ openAppId: z.string(), tenantId: z.string(), userId: z.string() }), installation: z.object({ status: z.enum(["active", "reauth_required", "missing"]) }) })),
  },
  "auth.sessionRenew": {
    summary: "Renews the tab's fallback session token (Authorization: Bearer), up to the sign-in's end",
    output: answer<{ token: string; expiresAt: number }>(z.looseObject({ token: z.string(), expiresAt: int })),
  },
});
