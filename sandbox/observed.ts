import type { Context, MiddlewareHandler } from "hono";
import { parseJson, stringifyJson } from "@/lib/platform/json";
import { RECORDED, type RecordedAnswer } from "@/lib/platform/testing/recorded-answers";
import { countCustomers, customerFilter } from "./api/customer-query";
import type { SandboxContext } from "./context";

/**
 * The `observed` profile (sandbox/README.md "Profiles"): the real platform's answers where the spec
 * is silent or says otherwise (docs/decisions/real-platform-answers.md), in one place. The handlers answer as the spec says; this
 * middleware rewrites their answers on the way out (and refuses a bearer-only token on the way in).
 * Bodies the real platform was recorded sending are the very bytes of `RECORDED`. Two behaviours
 * live where their state is: one active access token per app and tenant (auth/tokens.ts
 * `supersedesEarlierTokens`) and the extra fields of seeded customers (seed/generate-worker.ts).
 */

/**
 * Fields the real platform returns on customer records beyond §2.1 (about thirty), with their value
 * when unset: explicit `null`, `false` for flags. Seeded customers of an observed environment hold
 * some of them (seed/generate-worker.ts); every customer record carries all of them.
 */
export const EXTRA_CUSTOMER_FIELDS: Readonly<Record<string, null | false>> = {
  qq: null, weibo: null, linkedin: null, facebook: null, twitter: null, skype: null,
  acceptEmail: false, acceptSMS: false, acceptCall: false, acceptMessenger: false,
  externalId: null, isAnonymous: false, membershipLevel: null, membershipPoints: null, tags: null,
  lifecycleStage: null, leadScore: null, referrer: null, referrerName: null, utmSource: null,
  utmMedium: null, utmCampaign: null, lastActivityDate: null, lastVisitDate: null, customerType: null,
  department: null, postcode: null, fax: null, secondaryEmail: null, secondaryMobile: null,
};
/** Unset flags are `false` on the real platform, not `null`. */
const FLAGS = ["mobileVerified", "emailVerified", "isEmployee", "isMember"];
/** Money fields printed with six decimals (`59.000000`). */
const MONEY = /"(amountTotal|amountPaid|amountDiscount|priceUnit|priceSubTotal|priceSubPaid|refundTotal)":(-?\d+(?:\.\d+)?)(?=[,}\]])/g;

const JSON_TYPE = "application/json;charset=UTF-8";

function answer(recorded: RecordedAnswer): Response {
  return new Response(recorded.body, { status: recorded.status, headers: recorded.contentType ? { "Content-Type": recorded.contentType } : {} });
}

function json(value: unknown, status: number, headers?: Headers): Response {
  const out = new Headers(headers);
  out.set("Content-Type", JSON_TYPE);
  out.delete("Content-Length");
  return new Response(stringifyJson(value), { status, headers: out });
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isId = (v: unknown) => typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v));

/** Customer records: extra fields and `false` flags; any record: `idStr` / `customerIdStr` beside its ids (fact 10). */
function decorate(value: unknown, depth = 0): unknown {
  if (depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => decorate(v, depth + 1));
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = decorate(v, depth + 1);
    if (key === "id" && isId(v) && !("idStr" in value)) out.idStr = String(v);
    if (key === "customerId" && isId(v) && !("customerIdStr" in value)) out.customerIdStr = String(v);
  }
  if ("displayName" in value && "id" in value) {
    for (const flag of FLAGS) if (flag in out && out[flag] === null) out[flag] = false;
    for (const [field, unset] of Object.entries(EXTRA_CUSTOMER_FIELDS)) if (!(field in out)) out[field] = unset;
  }
  return out;
}

/** C0002: create-with-identities' field errors as JSON text in `message` (fact 7). */
function c0002(fieldErrors: unknown[]): Obj {
  const list = fieldErrors.filter(isObj).map((e) => ({ field: String(e.fieldName ?? e.field ?? "").replace(/^customer\./, ""), message: String(e.message ?? "") }));
  return { error: { code: "C0002", message: JSON.stringify(list) } };
}

/** The plain create's field errors as 400001 with `{fieldName, message}` items, not 401011's object (fact 7). */
function plainCreate400001(error: Obj): Obj {
  const raw = error.fieldErrors;
  const entries = Array.isArray(raw) ? raw.filter(isObj).flatMap((o) => Object.entries(o)) : isObj(raw) ? Object.entries(raw) : [];
  return { error: { code: "400001", message: String(error.message ?? "field validation failed"), fieldErrors: entries.map(([fieldName, message]) => ({ fieldName, message: String(message) })) } };
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text.trim() === "") return undefined;
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}

async function rewriteToken(res: Response): Promise<Response> {
  const body = await readBody(res.clone());
  if (!isObj(body)) return res;
  if (res.status === 200 && typeof body.access_token === "string") return json({ error_code: 0, ...body }, 200, res.headers);
  // Fact 3: a refused grant is HTTP 200 with a string code (40004 for every refusal here; the real codes beyond it are not known).
  if (res.status >= 400) return json({ error_code: "40004", error_description: typeof body.error_description === "string" ? body.error_description : RECORDED_DESCRIPTION }, 200, res.headers);
  return res;
}
const RECORDED_DESCRIPTION = "the params is illegal";

async function rewriteApi(ctx: SandboxContext, c: Context, res: Response): Promise<Response> {
  const method = c.req.method;
  const path = c.req.path;
  const type = res.headers.get("content-type") ?? "";
  // Fact 2: a refused token is HTTP 200 with an auth-layer body.
  if (res.status === 401) return answer(RECORDED.badToken);
  // Fact 5: a 204 labelled text/html.
  if (res.status === 204) return new Response(null, { status: 204, headers: { "Content-Type": "text/html;charset=utf-8" } });
  // Fact 8: a §7.3 text as a JSON string literal.
  if (res.status === 400 && type.startsWith("text/plain")) return new Response(JSON.stringify(await res.text()), { status: 400, headers: { "Content-Type": JSON_TYPE } });
  if (!type.includes("json")) return res;
  const body = await readBody(res.clone());
  const error = isObj(body) && isObj(body.error) ? body.error : undefined;
  // Fact 1: a missing resource by id (not an unknown endpoint) is HTTP 500 with 40201.
  if (res.status === 404 && !String(error?.message ?? "").startsWith("no such endpoint")) return answer(RECORDED.missingById);
  if (res.status !== 200 && res.status !== 201) return res;
  if (error) {
    if (path === "/v1/customerandidentities" && Array.isArray(error.fieldErrors)) return json(c0002(error.fieldErrors), 200);
    if (path === "/v1/customers" && method === "POST" && String(error.code) === "401011") return json(plainCreate400001(error), 200);
    return res;
  }
  let value = body;
  let status = res.status;
  // Fact 4: users/current as {email, name, tname, tid, loginName}.
  if (path === "/v1/users/current" && isObj(body)) {
    value = { email: body.email, name: body.name, tname: body.tenantName, tid: String(body.tenantId), loginName: body.username ?? body.email };
    return json(value, 200);
  }
  // Fact 5: creating an event or an order answers 201.
  if (method === "POST" && (path === "/v1/customerevents" || path === "/v1/deals")) status = 201;
  // Fact 6: the customer list with `records` (matches) and `total` (pages).
  if (method === "GET" && path === "/v1/customers" && isObj(body) && Array.isArray(body.rows)) {
    const records = countCustomers(ctx.db, c.get("subject").tenantId, customerFilter(c as never, c.get("subject").tenantId, true));
    const rows = Number(c.req.query("rows") || 20) || 20;
    value = { records, rows: body.rows, total: Math.ceil(records / rows) };
  }
  let text = stringifyJson(decorate(value));
  if (path.startsWith("/v1/deal")) text = text.replace(MONEY, (_m, field: string, n: string) => `"${field}":${Number(n).toFixed(6)}`);
  const headers = new Headers(res.headers);
  headers.set("Content-Type", JSON_TYPE);
  headers.delete("Content-Length");
  return new Response(text, { status, headers });
}

/** The middleware of an observed environment (mounted by `createEnvironmentApp`). */
export function observedAnswers(ctx: SandboxContext): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    const api = path.startsWith("/v1/");
    if (!api && path !== "/oauth2/token") return next();
    // Fact 4: the v1 API reads the token from `?access_token=` only; a bearer header alone is no token.
    if (api && !new URL(c.req.url).searchParams.get("access_token")) return answer(RECORDED.badToken);
    await next();
    const rewritten = api ? await rewriteApi(ctx, c, c.res) : await rewriteToken(c.res);
    if (rewritten === c.res) return;
    // Cleared first: Hono's setter would copy the old answer's headers (its length) onto the new one.
    c.res = undefined;
    c.res = rewritten;
  };
}
