import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { expect, it } from "vitest";
import {
  findEnvironment,
  findInstallation,
  markReauthRequired,
  saveEnvironment,
  saveInstallation,
  updateInstallationTokens,
  withInstallationLock,
} from "./installations";
import { describeEachDialect, warnIfPostgresSkipped, type TestStore } from "./testing";
import { tokenKeyId } from "./token-cipher";

warnIfPostgresSkipped("store conformance battery");

const BIG_TENANT = "9007199254740993123"; // above 2^53: ids stay strings (§2)
const key = { openAppId: "oa-alpha", tenantId: BIG_TENANT };
const tokens = { accessToken: "at_plain_ACCESS_secret", refreshToken: "rt_plain_REFRESH_secret", accessTokenExpiresAt: 1_900_000_000_000 };

/** Every text value of every row of every table. */
async function everyStoredText(t: TestStore): Promise<string> {
  const tables = ["environments", "installations", "kysely_migration"];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(t.store.db);
    parts.push(JSON.stringify(rows.rows));
  }
  return parts.join("\n");
}

describeEachDialect("store battery", (t) => {

  it("keeps environments by openAppId and updates them on a new lookup (§5.4.2)", async () => {
    await saveEnvironment(t.store, { openAppId: "oa-alpha", authDomain: "http://a", apiDomain: "http://a-api", productType: "cep", productVersion: "1" });
    await saveEnvironment(t.store, { openAppId: "oa-alpha", authDomain: "http://a2", apiDomain: "http://a2-api" });
    expect(await findEnvironment(t.store, "oa-alpha")).toEqual({ openAppId: "oa-alpha", authDomain: "http://a2", apiDomain: "http://a2-api", productType: undefined, productVersion: undefined });
    expect(await findEnvironment(t.store, "oa-none")).toBeUndefined();
  });

  it("stores one installation per (openAppId, tenantId) and reads its tokens back", async () => {
    await saveInstallation(t.store, { ...key, tenantName: "Alpha 阿尔法", installedBy: "90000000001", tokens }, 1000);
    await saveInstallation(t.store, { openAppId: "oa-beta", tenantId: BIG_TENANT, tokens: { ...tokens, accessToken: "other" } }, 1000);
    const found = await findInstallation(t.store, key);
    expect(found).toMatchObject({ ...key, tenantName: "Alpha 阿尔法", installedBy: "90000000001", status: "active", tokens, tokenGeneration: 1, createdAt: 1000 });
    expect((await findInstallation(t.store, { openAppId: "oa-beta", tenantId: BIG_TENANT }))?.tokens.accessToken).toBe("other");
    expect(await findInstallation(t.store, { openAppId: "oa-alpha", tenantId: "1" })).toBeUndefined();
  });

  it("holds no plaintext token anywhere in the database", async () => {
    await saveInstallation(t.store, { ...key, tokens });
    await updateInstallationTokens(t.store, key, { ...tokens, accessToken: "at_second_PLAINTEXT", refreshToken: "rt_second_PLAINTEXT" });
    const text = await everyStoredText(t);
    expect(text).toContain(BIG_TENANT);
    for (const secret of ["at_plain_ACCESS_secret", "rt_plain_REFRESH_secret", "at_second_PLAINTEXT", "rt_second_PLAINTEXT", "PLAINTEXT", "secret"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("updates access and refresh token together and counts generations", async () => {
    await saveInstallation(t.store, { ...key, tokens });
    await updateInstallationTokens(t.store, key, { accessToken: "a2", refreshToken: "r2", accessTokenExpiresAt: 5 });
    const found = await findInstallation(t.store, key);
    expect(found?.tokens).toEqual({ accessToken: "a2", refreshToken: "r2", accessTokenExpiresAt: 5 });
    expect(found?.tokenGeneration).toBe(2);
  });

  it("marks reauth_required; a reinstall replaces the tokens and clears the mark", async () => {
    await saveInstallation(t.store, { ...key, tokens });
    await markReauthRequired(t.store, key);
    expect((await findInstallation(t.store, key))?.status).toBe("reauth_required");
    await saveInstallation(t.store, { ...key, tokens: { accessToken: "new-a", refreshToken: "new-r", accessTokenExpiresAt: 9 } });
    const found = await findInstallation(t.store, key);
    expect(found?.status).toBe("active");
    expect(found?.tokens.refreshToken).toBe("new-r");
    expect(found?.tokenGeneration).toBe(2);
  });

  it("decrypts with every configured key, encrypts with the first (rotation)", async () => {
    const oldKey = t.store.tokenKeys[0]!;
    await saveInstallation(t.store, { ...key, tokens });
    const newKey = { id: "new", key: randomBytes(32) };
    t.store.tokenKeys = [newKey, oldKey];
    expect((await findInstallation(t.store, key))?.tokens).toEqual(tokens);
    await updateInstallationTokens(t.store, key, { ...tokens, accessToken: "rotated" });
    const row = await t.store.db.selectFrom("installations").select(["access_token"]).executeTakeFirstOrThrow();
    expect(tokenKeyId(row.access_token)).toBe("new");
    t.store.tokenKeys = [oldKey];
    await expect(findInstallation(t.store, key)).rejects.toThrow(/no longer configured/);
  });

  it("refuses a ciphertext moved to another installation's row", async () => {
    await saveInstallation(t.store, { ...key, tokens });
    await saveInstallation(t.store, { openAppId: "oa-beta", tenantId: "7", tokens: { ...tokens, accessToken: "beta" } });
    const alpha = await t.store.db.selectFrom("installations").select("access_token").where("open_app_id", "=", "oa-alpha").executeTakeFirstOrThrow();
    await t.store.db.updateTable("installations").set({ access_token: alpha.access_token }).where("open_app_id", "=", "oa-beta").execute();
    await expect(findInstallation(t.store, { openAppId: "oa-beta", tenantId: "7" })).rejects.toThrow(/integrity/);
  });

  it("runs work under the installation lock with a fresh read", async () => {
    await saveInstallation(t.store, { ...key, tokens });
    const seen = await withInstallationLock(t.store, key, async (inst, executor) => {
      await updateInstallationTokens(t.store, key, { ...tokens, accessToken: "inside" }, executor);
      return inst?.tokens.accessToken;
    });
    expect(seen).toBe(tokens.accessToken);
    expect((await findInstallation(t.store, key))?.tokens.accessToken).toBe("inside");
    expect(await withInstallationLock(t.store, { openAppId: "x", tenantId: "1" }, async (inst) => inst)).toBeUndefined();
  });
});
