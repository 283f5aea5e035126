/**
 * `/openapi.json`: an OpenAPI 3.1 document of the platform's resource API (§4.1–§4.6, §4.8).
 * Built from the sandbox's own route table until the shared operation table is merged.
 */
type Route = { method: "get" | "post" | "put" | "delete"; path: string; summary: string };

export const ROUTES: Route[] = [
  { method: "post", path: "/v1/customerandidentities", summary: "Create a customer with identities (§4.1)" },
  { method: "post", path: "/v1/customers", summary: "Create or update a customer by mobile/email; 201 new, 200 existing (§4.1)" },
  { method: "put", path: "/v1/customers/{id}", summary: "Update a customer; returns it as it was before (§4.1)" },
  { method: "delete", path: "/v1/customers/{id}", summary: "Delete a customer; 204 (§4.1)" },
  { method: "get", path: "/v1/customers/{id}", summary: "A customer (§4.1)" },
  { method: "get", path: "/v1/customers", summary: "Query customers: {rows} (§4.1)" },
  { method: "get", path: "/v1/customers/count", summary: "Count customers (§4.1)" },
  { method: "post", path: "/v1/customeridentities", summary: "Add an identity to a customer (§4.1)" },
  { method: "get", path: "/v1/customeridentities", summary: "Query identities (§4.1)" },
  { method: "get", path: "/v1/customerService/getCustomerIdentityByMd5", summary: "MD5 identity (§4.1, §2.2)" },
  { method: "get", path: "/v1/customerStatistics", summary: "Customer statistics {items, meta} (§4.1, §2.7)" },
  { method: "post", path: "/v1/customerService/mergeCustomerByIdentities", summary: "Merge customers by identities (§4.1)" },
  { method: "post", path: "/v1/customerService/mergeCustomerById", summary: "Merge customers by id (§4.1)" },
  { method: "post", path: "/v1/customers/messenger/unbinding", summary: "Unbind a messaging-platform identity (§4.1)" },
  { method: "post", path: "/v1/deals", summary: "Create or replace an order with lines (§4.2)" },
  { method: "get", path: "/v1/deals/{orderNo}", summary: "An order with lines, last month only (§4.2)" },
  { method: "get", path: "/v1/deals", summary: "Orders of the last month {page, records, rows} (§4.2)" },
  { method: "put", path: "/v1/deals/{orderNo}", summary: "Update order fields (§4.2)" },
  { method: "delete", path: "/v1/deals/{orderNo}", summary: "Delete an order (§4.2)" },
  { method: "post", path: "/v1/dealService/cancel", summary: "Cancel an order: state 已取消 (§4.2, §3)" },
  { method: "post", path: "/v1/dealService/refund", summary: "Refund: 完全退单 or 部分退单 (§4.2, §3)" },
  { method: "post", path: "/v1/dealService/deleteRefund", summary: "Delete the refund of an order (§4.2, §3)" },
  { method: "get", path: "/v1/dealService/getDealByOrderNo", summary: "Order detail with state and custom line fields (§4.2)" },
  { method: "post", path: "/v1/customerevents", summary: "Create an event for a customer id (§4.3)" },
  { method: "post", path: "/v1/collector/pushevent", summary: "Collect an event by identity (§4.3)" },
  { method: "post", path: "/v1/collector/batchPushEvents", summary: "Collect at most 100 events (§4.3)" },
  { method: "get", path: "/v1/customerevents/{id}", summary: "An event of the last month (§4.3)" },
  { method: "get", path: "/v1/customerevents", summary: "Events of the last month (§4.3)" },
  { method: "post", path: "/v1/lists", summary: "Create a list (§4.4)" },
  { method: "delete", path: "/v1/lists/{id}", summary: "Delete a list (§4.4)" },
  { method: "get", path: "/v1/lists", summary: "Lists {page, records, total, rows} (§4.4)" },
  { method: "post", path: "/v1/listMembers", summary: "Add a member {data} (§4.4)" },
  { method: "delete", path: "/v1/listMembers/{id}", summary: "Remove a membership (§4.4)" },
  { method: "post", path: "/v1/listservice/removeFromList", summary: "Remove customers from a list (§4.4)" },
  { method: "post", path: "/v1/listMembersBatch", summary: "Add members {items} (§4.4)" },
  { method: "get", path: "/v1/listMembers", summary: "Members {items}, sinceId paging (§4.4)" },
  { method: "get", path: "/v1/listservice/memberCount", summary: "Count members (§4.4)" },
  { method: "post", path: "/v1/tagdimensions", summary: "Create a tag dimension (§4.5)" },
  { method: "get", path: "/v1/tagdimensions", summary: "Tag dimensions (§4.5)" },
  { method: "post", path: "/v1/tags", summary: "Create a tag (§4.5)" },
  { method: "put", path: "/v1/tags/{id}", summary: "Rename or move a tag (§4.5)" },
  { method: "delete", path: "/v1/tags/{id}", summary: "Delete a tag (§4.5)" },
  { method: "get", path: "/v1/tags", summary: "Tags {page, records, total, rows} (§4.5)" },
  { method: "post", path: "/v1/tagservice/addCustomerTag", summary: "Tag a customer (§4.5)" },
  { method: "post", path: "/v1/tagservice/removeCustomerTag", summary: "Untag a customer (§4.5)" },
  { method: "get", path: "/v1/tagservice/getCustomerTags", summary: "Tags per customer id (§4.5)" },
  { method: "post", path: "/v1/tags/{fromId}/mergeto/{toId}", summary: "Merge tags (§4.5)" },
  { method: "post", path: "/v1/externalTags", summary: "Import external tags (§4.5)" },
  { method: "post", path: "/v1/third_party_data/importData", summary: "Import media data files (§4.6)" },
  { method: "post", path: "/v1/stores", summary: "Create a shop (§4.8)" },
  { method: "put", path: "/v1/stores/{id}", summary: "Update a shop (§4.8)" },
  { method: "delete", path: "/v1/stores/{id}", summary: "Delete a shop (§4.8)" },
  { method: "post", path: "/v1/storesGroups", summary: "Create a shop group (§4.8)" },
  { method: "get", path: "/v1/storesGroups/{groupId}", summary: "Shops of a group (§4.8)" },
];

export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
    paths[r.path] ??= {};
    paths[r.path]![r.method] = {
      summary: r.summary,
      security: [{ accessToken: [] }],
      ...(params.length > 0 ? { parameters: params } : {}),
      responses: { "200": { description: "OK", content: { "application/json": { schema: {} } } } },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Customer Engagement Platform Open API (Platform Sandbox)", version: "v1" },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { accessToken: { type: "apiKey", in: "query", name: "access_token" } } },
    paths,
  };
}
