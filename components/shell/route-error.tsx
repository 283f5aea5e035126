"use client";
import { useEffect } from "react";
import { ApiError } from "@/lib/http/api-error";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/components/ui/error-message";

/** The body of every console route's error boundary: what happened, a retry, the request id. */
export function RouteError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  const { t } = useI18n();
  useEffect(() => {
    console.error(error);
  }, [error]);
  const requestId = error instanceof ApiError ? error.requestId : error.digest;
  return (
    <div role="alert" className="max-w-xl rounded-lg border border-red-300 bg-white p-5">
      <h1 className="text-lg font-semibold text-slate-900">{t("error.title")}</h1>
      <p className="mt-2 text-sm text-slate-800">{error instanceof ApiError ? errorMessage(error, t) : t("error.body")}</p>
      {requestId && <p className="mt-1 text-xs text-slate-700">{t("error.requestId", { id: requestId })}</p>}
      <Button variant="primary" className="mt-4" onClick={retry}>
        {t("error.retry")}
      </Button>
    </div>
  );
}
