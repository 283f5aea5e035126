import { createHash } from "node:crypto";
import { storableText } from "@/lib/http/request-guard";
import { parseJson } from "@/lib/platform/json";
import { removeJsonWhitespace } from "@/lib/platform/webhook-signature";
import type { InboxDelivery, WebhookVerification } from "@/lib/store/webhook-inbox";

/**
 * What the receiver reads from a delivery. The spec does not show the payload (§6); the sandbox's
 * sender documents its shape (sandbox/README.md): `{deliveryId, event, occurredAt, appId,
 * environment, openAppId, tenantId, resource, action, resourceId, data}`. The receiver is tolerant:
 * any JSON object is accepted and kept whole; the fields below are read when present (`id`, `kind`
 * and `type` are accepted as other names of `deliveryId` and `event`), and a known field of the
 * wrong type or length is a 400. Ids may exceed 2^53 (§2): the body is parsed losslessly.
 */

const LIMITS = { deliveryId: 128, kind: 128, openAppId: 128, tenantId: 32, resource: 64, resourceId: 64, action: 64, occurredAt: 32 };

/**
 * `data` is the body's `data` object as parsed here, the one parse of the delivery: handlers get it
 * (lib/webhooks/topics.ts) and never parse `delivery.payload` again, so ids above 2^53 stay exact.
 */
export type ParsedDelivery = { ok: true; delivery: InboxDelivery; data: Record<string, unknown> } | { ok: false; message: string };

type Fields = Record<string, unknown>;

function text(fields: Fields, names: string[], max: number, kind: "text" | "id"): { value?: string; error?: string } {
  for (const name of names) {
    const raw = fields[name];
    if (raw === undefined || raw === null || raw === "") continue;
    let value: string;
    if (typeof raw === "string") value = raw;
    else if (kind === "id" && (typeof raw === "bigint" || (typeof raw === "number" && Number.isSafeInteger(raw)))) value = String(raw);
    else return { error: `${name} must be ${kind === "id" ? "a string or an integer" : "a string"}` };
    if (value.length > max) return { error: `${name} is longer than ${max} characters` };
    return { value };
  }
  return {};
}

/**
 * Parses a verified body. `fallbackOpenAppId` (the environment of a per-installation webhook address
 * whose MAC was checked, address.ts) is used when the payload does not name its environment.
 */
export function parseDelivery(rawBody: string, verification: WebhookVerification, fallbackOpenAppId?: string): ParsedDelivery {
  let value: unknown;
  try {
    value = parseJson(rawBody);
  } catch {
    return { ok: false, message: "the body is not valid JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, message: "the body must be a JSON object" };
  const fields = value as Fields;

  const read = {
    deliveryId: text(fields, ["deliveryId", "id"], LIMITS.deliveryId, "id"),
    kind: text(fields, ["event", "kind", "type"], LIMITS.kind, "text"),
    openAppId: text(fields, ["openAppId"], LIMITS.openAppId, "text"),
    tenantId: text(fields, ["tenantId"], LIMITS.tenantId, "id"),
    resource: text(fields, ["resource"], LIMITS.resource, "text"),
    resourceId: text(fields, ["resourceId"], LIMITS.resourceId, "id"),
    action: text(fields, ["action"], LIMITS.action, "text"),
    occurredAt: text(fields, ["occurredAt"], LIMITS.occurredAt, "text"),
  };
  const problems = Object.values(read).flatMap((r) => (r.error ? [r.error] : []));
  if (problems.length > 0) return { ok: false, message: problems.join("; ") };

  const payload = removeJsonWhitespace(rawBody);
  const fallback = fallbackOpenAppId && fallbackOpenAppId.length <= LIMITS.openAppId ? fallbackOpenAppId : undefined;
  // An authenticated delivery is stored even when a field holds what PostgreSQL text cannot (a NUL,
  // a lone surrogate: JSON escapes): refusing it would make the platform retry it forever, and a
  // store error would be a 503 it retries forever too. The fields read keep U+FFFD in their place;
  // the payload keeps the exact text (as escapes).
  const field = (name: keyof typeof read) => (read[name].value === undefined ? undefined : storableText(read[name].value));
  const resource = field("resource");
  const action = field("action");
  const kind = field("kind") ?? (resource && action ? `${resource}.${action}` : "unknown");
  const rawDeliveryId = read.deliveryId.value;
  const deliveryId = field("deliveryId");
  const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
  const data = fields.data;
  return {
    ok: true,
    data: typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {},
    delivery: {
      openAppId: field("openAppId") ?? fallback ?? "",
      tenantId: field("tenantId") ?? "",
      // Without a delivery id, a retry is recognised by its content (whitespace outside strings
      // ignored); an id that had to be made storable by a hash of the id as sent (two such ids never merge).
      dedupeKey: rawDeliveryId ? (rawDeliveryId === deliveryId ? `id:${rawDeliveryId}` : `id-sha256:${sha256(rawDeliveryId)}`) : `sha256:${sha256(payload)}`,
      deliveryId,
      kind,
      resource: resource ?? kindPart(kind, 0, LIMITS.resource),
      resourceId: field("resourceId"),
      action: action ?? kindPart(kind, 1, LIMITS.action),
      occurredAt: field("occurredAt"),
      verification,
      payload,
    },
  };
}

/** `customer.updated` → `customer` (part 0) or `updated` (part 1); undefined for a kind without a dot. */
function kindPart(kind: string, part: 0 | 1, max: number): string | undefined {
  const dot = kind.indexOf(".");
  if (dot <= 0 || dot === kind.length - 1) return undefined;
  return (part === 0 ? kind.slice(0, dot) : kind.slice(dot + 1)).slice(0, max);
}
