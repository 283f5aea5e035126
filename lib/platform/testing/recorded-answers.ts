/**
 * What the real platform answers where the spec is silent or says otherwise (docs/decisions/real-platform-answers.md; "What the
 * real platform does"), written byte for byte: the client's unit tests read these without the
 * sandbox, and the sandbox's `observed` profile (sandbox/observed.ts) sends the same bytes.
 * Each entry: HTTP status, Content-Type and body exactly as recorded.
 */
export type RecordedAnswer = { status: number; contentType: string | null; body: string };

const JSON_TYPE = "application/json;charset=UTF-8";

export const RECORDED = {
  /** Fact 1: a missing or deleted resource by id (GET/PUT/DELETE customer and the like). */
  missingById: { status: 500, contentType: JSON_TYPE, body: '{"error_code": 40201, "error_description": "permission is not enough"}' },
  /** Fact 2: an invalid, expired or superseded access token: HTTP 200 and an auth-layer body (no 401; the code is not documented). */
  badToken: { status: 200, contentType: JSON_TYPE, body: '{"error_code":"40001","error_description":"invalid access_token"}' },
  /** Fact 3: a token answer with its success marker. */
  tokenGranted: {
    status: 200,
    contentType: JSON_TYPE,
    body: '{"error_code":0,"access_token":"at_recordedrecordedrecorded","token_type":"authorization_code","expires_in":7200,"refresh_token":"rt_recordedrecordedrecorded"}',
  },
  /** Fact 3: a refused grant (bad client secret): HTTP 200 and a string code. */
  grantRefused: { status: 200, contentType: JSON_TYPE, body: '{"error_code":"40004","error_description":"the params is illegal"}' },
  /** Fact 4: users/current in the v1 shape (`tid` is the tenant id, as a string). */
  currentUser: {
    status: 200,
    contentType: JSON_TYPE,
    body: '{"email":"admin@beta.test","name":"Bob Admin 李博","tname":"Beta Foods 贝塔食品","tid":"80000000002","loginName":"admin@beta.test"}',
  },
  /** Fact 5: an event or order created. */
  created: { status: 201, contentType: JSON_TYPE, body: '{"id":9007199254740993,"idStr":"9007199254740993","customerId":9007199254740995,"customerIdStr":"9007199254740995"}' },
  /** Fact 5: a 204 labelled as HTML, with an empty body. */
  noContent: { status: 204, contentType: "text/html;charset=utf-8", body: "" },
  /** Fact 6: a customer list page with `records` (all matches) and `total` (pages). */
  customerList: {
    status: 200,
    contentType: JSON_TYPE,
    body:
      '{"records":1,"rows":[{"id":9007199254740995,"customerIdStr":"9007199254740995","name":"Lin","displayName":"Lin","mobile":null,"email":null,"gender":null,"mobileVerified":false,"emailVerified":false,"isEmployee":false,' +
      '"qq":null,"weibo":null,"acceptEmail":false,"acceptSMS":false,"externalId":"crm-77","isAnonymous":false,"membershipLevel":"gold","tags":null,"ownerId":9007199254740997,"attr":{"attr1":null}}],"total":1}',
  },
  /** Fact 7: field errors of create-with-identities as C0002 (the message is JSON text). */
  c0002: {
    status: 200,
    contentType: JSON_TYPE,
    body: '{"error":{"code":"C0002","message":"[{\\"field\\":\\"email\\",\\"message\\":\\"email format is invalid\\"}]"}}',
  },
  /** Fact 7: field errors of the plain create as 400001 with `{fieldName, message}` items. */
  plainCreate400001: {
    status: 200,
    contentType: JSON_TYPE,
    body: '{"error":{"code":"400001","message":"field validation failed","fieldErrors":[{"fieldName":"mobile","message":"mobile format is invalid"}]}}',
  },
  /** Fact 8: a §7.3 plain-text 400 as a JSON string literal. */
  jsonStringText: { status: 400, contentType: JSON_TYPE, body: '"No customer field found"' },
  /** Fact 10: money printed with six decimals; ids above 2^53 with their string twins. */
  order: {
    status: 200,
    contentType: JSON_TYPE,
    body: '{"orderNo":"SO-1","customerId":9007199254740995,"customerIdStr":"9007199254740995","amountTotal":59.000000,"amountPaid":59.000000,"state":"已付款"}',
  },
} satisfies Record<string, RecordedAnswer>;
