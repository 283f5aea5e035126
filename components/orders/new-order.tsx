"use client";
import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { isPlatformId } from "@/lib/platform/ids";
import { emptyOrderForm } from "@/lib/orders/order-form";
import { OrderFormView } from "./order-form";

/** The create form, started with `?customerId=` when it is an id (from a customer's orders). */
export function NewOrder() {
  const customerId = useSearchParams().get("customerId") ?? "";
  const original = useMemo(() => emptyOrderForm(isPlatformId(customerId) ? customerId : ""), [customerId]);
  return <OrderFormView key={customerId} mode="create" original={original} />;
}
