import { expect, it } from "vitest";
import { openStore } from "./database";
import { consumeFlowNonce, createSignIn, isSignInLive, newSignInId, revokeSignIns, revokeUserSignIns } from "./sign-ins";
import { describeEachDialect, postgresUrl, warnIfPostgresSkipped } from "./testing";

warnIfPostgresSkipped("single-use flow nonces and sign-in revocation across two instances");

const user = { openAppId: "oa-alpha", tenantId: "9007199254740993123", userId: "9007199254740995001" };
const HOUR = 3600_000;

describeEachDialect("sign-ins", (t, dialect) => {
  it("redeems a flow nonce exactly once, even when many ask at the same time", async () => {
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 20 }, () => consumeFlowNonce(t.store, "nonce-A", now + HOUR, now)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await consumeFlowNonce(t.store, "nonce-A", now + HOUR, now)).toBe(false);
    expect(await consumeFlowNonce(t.store, "nonce-B", now + HOUR, now)).toBe(true);
    // only the hash is kept
    const rows = await t.store.db.selectFrom("auth_flow_nonces").select("nonce_hash").execute();
    expect(rows.map((r) => r.nonce_hash).join()).not.toContain("nonce-A");
  });

  it("a sign-in is live until revoked or expired; everywhere revokes only that user's", async () => {
    const now = Date.now();
    const [a, b, other] = [newSignInId(), newSignInId(), newSignInId()];
    await createSignIn(t.store, { id: a, ...user, expiresAt: now + HOUR }, now);
    await createSignIn(t.store, { id: b, ...user, expiresAt: now + HOUR }, now);
    await createSignIn(t.store, { id: other, ...user, userId: "42", expiresAt: now + HOUR }, now);
    expect(await isSignInLive(t.store, a, now)).toBe(true);
    expect(await isSignInLive(t.store, a, now + HOUR + 1)).toBe(false);
    expect(await isSignInLive(t.store, "no-such-sign-in-id", now)).toBe(false);
    expect(await revokeSignIns(t.store, [a], now)).toBe(1);
    expect(await isSignInLive(t.store, a, now)).toBe(false);
    expect(await isSignInLive(t.store, b, now)).toBe(true);
    expect((await revokeUserSignIns(t.store, user, now)).sort()).toEqual([b]);
    expect(await isSignInLive(t.store, b, now)).toBe(false);
    expect(await isSignInLive(t.store, other, now)).toBe(true);
  });

  it.skipIf(dialect.name !== "postgres")("two instances on PostgreSQL: one redemption of a nonce, and a revocation seen by the other", async () => {
    const second = await openStore({ database: { kind: "postgres", url: postgresUrl! }, tokenKeys: t.store.tokenKeys, schema: t.schema });
    try {
      const now = Date.now();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => consumeFlowNonce(i % 2 ? second : t.store, "shared-nonce", now + HOUR, now)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const id = newSignInId();
      await createSignIn(t.store, { id, ...user, expiresAt: now + HOUR }, now);
      expect(await isSignInLive(second, id, now)).toBe(true);
      await revokeSignIns(second, [id], now);
      expect(await isSignInLive(t.store, id, now)).toBe(false);
    } finally {
      await second.close();
    }
  });
});
