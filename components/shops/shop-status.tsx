"use client";
import type { RegisteredShop } from "@/lib/shops/shops-api";
import { useI18n } from "@/components/i18n/i18n-provider";

/** The platform's `shopStatus` and `refuseReason` (§2.8) where an answer carried them; their values are not documented. */
export function ShopStatus({ shop }: { shop: Pick<RegisteredShop, "shopStatus" | "refuseReason"> }) {
  const { t } = useI18n();
  return (
    <span className="text-sm">
      {/* A bare code ("1") reads as a count: it is named as the platform's code, its meaning unknown. */}
      {shop.shopStatus ? (
        <span title={t("shops.status.codeHelp")} data-testid="shop-status">{t("shops.status.code", { code: shop.shopStatus })}</span>
      ) : (
        <span className="text-slate-700">{t("shops.status.unknown")}</span>
      )}
      {shop.refuseReason && <span className="block text-xs text-red-800">{t("shops.refused", { reason: shop.refuseReason })}</span>}
    </span>
  );
}
