"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AppLink } from "@/components/ui/app-link";
import { ApiError } from "@/lib/http/api-error";
import { platformQuery } from "@/lib/api/platform-queries";
import { useDelayedFlag } from "@/lib/hooks/use-delayed-flag";
import type { MessageKey } from "@/lib/i18n/messages";
import { customerDetailInputs } from "@/lib/customers/customer-detail-inputs";
import { otherFields } from "@/lib/customers/other-fields";
import { splitProfileFields, type ProfileField } from "@/lib/customers/profile-fields";
import type { Customer } from "@/lib/platform/resources";
import { attrLabel, attrNumber } from "@/lib/preferences/preference-rules";
import { useI18n } from "@/components/i18n/i18n-provider";
import { usePreferences } from "@/components/preferences/use-preferences";
import { useConsoleHref } from "@/components/shell/console-href";
import { Button, buttonClass, focusRing } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";
import { TimeText } from "@/components/ui/time-text";
import { AddIdentity } from "./add-identity";
import { cellText } from "./customer-table";
import { CustomerEvents, CustomerMemberships, CustomerOrders, CustomerTags, DetailSection, PanelRead, PanelTable } from "./customer-activity";
import { DeleteCustomer } from "./delete-customer";
import { UnbindMessenger } from "./unbind-messenger";
import { clientOnly } from "@/components/ui/client-only";

// The page's last section, read in the browser (not prefetched): loaded after the customer (first-load target).
const CustomerAuditTrail = clientOnly(() => import("@/components/audit/customer-audit-trail").then((m) => m.CustomerAuditTrail));

const TIME_FIELDS = new Set<string>(["dateJoin", "dateCreated", "lastUpdated"]);
const STAT_FIELDS = ["totalScore", "latest30daysScore", "orderTotal", "orderTotalAmount", "firstOrderDate", "lastOrderDate", "lastOrderDays"] as const;

function Value({ field, value }: { field: string; value: unknown }) {
  const { t } = useI18n();
  if (TIME_FIELDS.has(field) || field.endsWith("Date")) return <TimeText value={typeof value === "string" ? value : null} />;
  if (value === null || value === undefined || value === "") return <span className="text-slate-600">—</span>;
  if (typeof value === "boolean") return <>{value ? t("yes") : t("no")}</>;
  if (typeof value === "object") return <code className="text-xs">{JSON.stringify(value)}</code>;
  return <>{String(value)}</>;
}

/** A customer, read-only: profile (custom `attr` fields included), identities, statistics (§4.1). */
/** Fields by key (custom attributes, other fields): the staff-given label with the key, else the key's own label. */
function FieldList({ entries, labels, alignRight = false, testId }: { entries: [string, unknown][]; labels: Record<string, string>; alignRight?: boolean; testId?: string }) {
  return (
    <dl data-testid={testId}>
      {entries.map(([key, value]) => (
        <div key={key} className="flex justify-between gap-3 border-b border-slate-100 py-1.5 text-sm">
          <dt className="text-slate-700" data-attr={key}>
            {labels[key] ? (
              <>
                {labels[key]} <span className="font-mono text-xs">({key})</span>
              </>
            ) : (
              <span className="font-mono">{attrLabel(labels, key)}</span>
            )}
          </dt>
          <dd className={`break-all ${alignRight ? "text-right " : ""}text-slate-900`}><Value field={key} value={value} /></dd>
        </div>
      ))}
    </dl>
  );
}

/** The fields the customer has, then a toggle for the empty ones (most of §2.1's are empty for most people). */
function ProfileFields({ customer }: { customer: Customer }) {
  const { t } = useI18n();
  const [showEmpty, setShowEmpty] = useState(false);
  const { filled, empty } = splitProfileFields(customer as Record<string, unknown>);
  const list = (fields: ProfileField[], testId: string, id?: string) => (
    <dl id={id} className="grid grid-cols-1 gap-x-6 sm:grid-cols-2" data-testid={testId}>
      {fields.map((field) => (
        <div key={field} className="flex justify-between gap-3 border-b border-slate-100 py-1.5 text-sm" data-field={field}>
          <dt className="text-slate-700">{t(`field.${field}` as MessageKey)}</dt>
          <dd className="text-right break-all text-slate-900">
            {field === "gender" ? cellText(customer, "gender", t) || <Value field={field} value={null} /> : <Value field={field} value={(customer as Record<string, unknown>)[field]} />}
          </dd>
        </div>
      ))}
    </dl>
  );
  return (
    <>
      {list(filled, "profile-filled")}
      {empty.length > 0 && (
        <>
          <Button className="mt-3 self-start" aria-expanded={showEmpty} aria-controls="profile-empty" onClick={() => setShowEmpty((v) => !v)} data-testid="profile-empty-toggle">
            {showEmpty ? t("detail.hideEmpty") : t("detail.showEmpty", { count: empty.length })}
          </Button>
          {showEmpty && <div className="mt-2">{list(empty, "profile-empty", "profile-empty")}</div>}
        </>
      )}
    </>
  );
}

export function CustomerDetail({ id }: { id: string }) {
  const { t } = useI18n();
  const href = useConsoleHref();
  const inputs = customerDetailInputs(id);
  const customer = useQuery(platformQuery("customers.get", inputs.customer));
  const identities = useQuery(platformQuery("identities.list", inputs.identities));
  const statistics = useQuery(platformQuery("customers.statistics", inputs.statistics));
  const showLoading = useDelayedFlag(customer.isPending);
  // Staff-given names of the custom attributes (Settings); the technical name until they load.
  const labels = usePreferences().data?.attrLabels ?? {};

  const back = (
    <AppLink href={href("/customers")} className={`text-sm text-blue-800 underline-offset-2 hover:underline ${focusRing}`}>
      ← {t("detail.back")}
    </AppLink>
  );
  if (customer.isPending) return <div className="flex flex-col gap-3">{back}<p role="status" className="text-sm text-slate-700">{showLoading ? t("detail.loading") : ""}</p></div>;
  if (customer.isError) {
    const notFound = customer.error instanceof ApiError && customer.error.status === 404;
    return (
      <div className="flex flex-col gap-3">
        {back}
        <div role="alert" className="rounded-lg border border-red-300 bg-white p-4">
          <p className="text-sm text-slate-900">{notFound ? t("detail.notFound") : errorMessage(customer.error, t)}</p>
          {!notFound && <Button className="mt-3" onClick={() => void customer.refetch()}>{t("error.retry")}</Button>}
        </div>
      </div>
    );
  }
  const c: Customer = customer.data;
  const attrs = Object.entries(c.attr ?? {}).sort(([a], [b]) => attrNumber(a) - attrNumber(b));
  const others = otherFields(c as Record<string, unknown>);
  const stats = statistics.data?.items?.[0];
  return (
    <div className="flex flex-col gap-4">
      {back}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold text-slate-900">{c.displayName || c.name || c.nickName || t("list.unnamed")}</h1>
        <div className="flex gap-2">
          <AppLink href={href(`/customers/${id}/edit`)} className={buttonClass("secondary")}>
            {t("customerDetail.edit")}
          </AppLink>
          <AppLink href={href("/customers/merge", { fromId: id })} className={buttonClass("secondary")}>
            {t("customerMerge.open")}
          </AppLink>
          <DeleteCustomer id={id} name={c.displayName || c.name || c.nickName || t("list.unnamed")} />
        </div>
      </div>
      <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
        <DetailSection id="detail-profile" title={t("detail.profile")}>
          <ProfileFields customer={c} />
        </DetailSection>
        <div className="flex flex-col gap-4">
          <DetailSection id="detail-identities" title={t("detail.identities")}>
            <PanelRead query={identities} empty={identities.data?.length === 0} none={t("detail.noIdentities")}>
              {() => (
                <PanelTable headers={[t("detail.identityType"), t("detail.identityValue"), t("detail.identityName")]}>
                  {identities.data!.map((identity, i) => (
                    <tr key={`${identity.identityType}:${identity.identityValue}:${i}`} className="border-b border-slate-100">
                      <td className="py-1 pr-2">{identity.identityType}</td>
                      <td className="py-1 pr-2 break-all">{identity.identityValue}</td>
                      <td className="py-1">{identity.identityName}</td>
                    </tr>
                  ))}
                </PanelTable>
              )}
            </PanelRead>
            {identities.data && <UnbindMessenger identities={identities.data} />}
            {identities.data && <AddIdentity customerId={id} existing={identities.data} />}
          </DetailSection>
          <CustomerTags id={id} />
          <CustomerMemberships id={id} />
          <DetailSection id="detail-statistics" title={t("detail.statistics")}>
            <PanelRead query={statistics} empty={!stats} none={t("detail.noStatistics")}>
              {() => (
                <dl>
                  {STAT_FIELDS.map((field) => (
                    <div key={field} className="flex justify-between gap-3 border-b border-slate-100 py-1.5 text-sm">
                      <dt className="text-slate-700">{t(`stat.${field}` as MessageKey)}</dt>
                      <dd className="text-slate-900"><Value field={field} value={(stats as Record<string, unknown>)[field]} /></dd>
                    </div>
                  ))}
                </dl>
              )}
            </PanelRead>
          </DetailSection>
          <DetailSection id="detail-attrs" title={t("detail.customFields")}>
            {attrs.length === 0 ? (
              <p className="text-sm text-slate-700">{t("detail.noCustomFields")}</p>
            ) : (
              <FieldList entries={attrs} labels={labels} />
            )}
          </DetailSection>
          {others.length > 0 && (
            <DetailSection id="detail-other" title={t("detail.otherFields")}>
              <p className="mb-2 text-xs text-slate-700">{t("detail.otherFieldsNote")}</p>
              <FieldList entries={others} labels={labels} alignRight testId="customer-other-fields" />
            </DetailSection>
          )}
        </div>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <CustomerEvents id={id} />
        <CustomerOrders id={id} />
      </div>
      <CustomerAuditTrail id={id} />
    </div>
  );
}
