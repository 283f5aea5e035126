import type { Metadata } from "next";
import { AuditView } from "@/components/audit/audit-view";
import { auditFilterOf, auditList, AUDIT_PAGE } from "@/lib/audit/audit-list";
import { AUDIT_RETENTION_DEFAULT_DAYS, AUDIT_RETENTION_MAX_DAYS, AUDIT_RETENTION_MIN_DAYS, auditFacets, auditRetentionDays, listAuditEntries } from "@/lib/audit/audit-store";
import { requirePageSession, type PageSearchParams } from "@/lib/auth/page-session";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log · Engage Console" };

type Props = { searchParams: Promise<PageSearchParams> };

/**
 * The audit log of the signed-in tenant (lib/audit): the list's state is the URL's (`auditList`,
 * the definition the browser's list controller writes); the store is read here, a keyset page.
 */
export default async function AuditPage({ searchParams }: Props) {
  const params = await searchParams;
  const openAppId = typeof params.openAppId === "string" ? params.openAppId : undefined;
  const session = await requirePageSession(params, openAppId ? `/audit?${new URLSearchParams({ openAppId })}` : "/audit");
  const key = { openAppId: session.openAppId, tenantId: session.tenantId };
  const state = auditList.parse(params);
  const { filter, problems } = auditFilterOf(state);
  const store = await getStore();
  const [page, facets, retentionDays] = await Promise.all([
    listAuditEntries(store, key, filter, { ...(state.before ? { before: state.before } : {}), limit: AUDIT_PAGE }),
    auditFacets(store, key),
    auditRetentionDays(store, key),
  ]);
  const settings = { retentionDays, defaultDays: AUDIT_RETENTION_DEFAULT_DAYS, minDays: AUDIT_RETENTION_MIN_DAYS, maxDays: AUDIT_RETENTION_MAX_DAYS };
  return <AuditView entries={page.entries} facets={facets} problems={problems} settings={settings} />;
}
