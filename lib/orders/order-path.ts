/**
 * Order pages are addressed by the order number (§4.2 getDealByOrderNo), a platform key of
 * arbitrary characters: one path segment, encoded.
 */

/** The console path of an order: its number is one path segment, encoded (it may hold `/`, `#`, `?`, `%`, spaces). */
export function orderPath(orderNo: string, suffix = ""): string {
  return `/orders/${encodeURIComponent(orderNo)}${suffix}`;
}

/** The order number of a `/orders/[orderNo]` route parameter (the segment `orderPath` encoded). */
export function orderNoFromParam(param: string): string | undefined {
  let value = param;
  // Next hands the dynamic segment over still percent-encoded (see the e2e spec's order number with `/ # ? %`).
  try {
    value = decodeURIComponent(param);
  } catch {
    return undefined;
  }
  return value.trim() === "" ? undefined : value;
}
