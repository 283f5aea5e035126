import type { InputOf, OperationName } from "@/lib/platform/operations";

/**
 * The reads of the customer detail page, in one place: the client components build their queries
 * from these inputs and the server page prefetches `customerDetailReads(id)`, so both use the same
 * keys (`platformKeys.call(name, input)`) and a document load with a session needs no browser call.
 */
export function customerDetailInputs(id: string, eventType = "") {
  return {
    customer: { params: { id } },
    identities: { query: { customerIds: id } },
    statistics: { query: { customerId: id } },
    // §4.5 tags of the customer; §4.4 the lists it is in, named from the tenant's lists.
    tags: { query: { customerId: id } },
    memberships: { query: { customerId: id, rows: 100, sidx: "listId" as const } },
    lists: { query: { rows: 1000 } },
    // §4.3 / §4.2: the platform answers the last month only (§8); newest events first.
    events: { query: { customerId: id, max: 100, sidx: "date", sord: "desc" as const, ...(eventType ? { event: eventType } : {}) } },
    orders: { query: { customerId: id, rows: 100 } },
  } satisfies {
    customer: InputOf<"customers.get">;
    identities: InputOf<"identities.list">;
    statistics: InputOf<"customers.statistics">;
    tags: InputOf<"customerTags.get">;
    memberships: InputOf<"listMembers.list">;
    lists: InputOf<"lists.list">;
    events: InputOf<"events.list">;
    orders: InputOf<"deals.list">;
  };
}

export type CustomerDetailPart = keyof ReturnType<typeof customerDetailInputs>;

/** Which operation reads each part of the detail page. */
export const CUSTOMER_DETAIL_OPERATIONS = {
  customer: "customers.get",
  identities: "identities.list",
  statistics: "customers.statistics",
  tags: "customerTags.get",
  memberships: "listMembers.list",
  lists: "lists.list",
  events: "events.list",
  orders: "deals.list",
} as const satisfies Record<CustomerDetailPart, OperationName>;

export type CustomerDetailRead = { [P in CustomerDetailPart]: { part: P; name: (typeof CUSTOMER_DETAIL_OPERATIONS)[P]; input: ReturnType<typeof customerDetailInputs>[P] } }[CustomerDetailPart];

/** Every read the detail page shows on first render (events unfiltered), for the server prefetch. */
export function customerDetailReads(id: string): CustomerDetailRead[] {
  const inputs = customerDetailInputs(id);
  return (Object.keys(CUSTOMER_DETAIL_OPERATIONS) as CustomerDetailPart[]).map((part) => ({ part, name: CUSTOMER_DETAIL_OPERATIONS[part], input: inputs[part] }) as CustomerDetailRead);
}
