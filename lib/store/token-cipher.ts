import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { EncryptionKey } from "@/lib/env";

/**
 * Tokens at rest: AES-256-GCM, stored as `v1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url). The first
 * key encrypts, every key decrypts (rotation, ARCHITECTURE.md §4 "Tokens"). The associated data binds a
 * value to its row and column, so a ciphertext copied to another installation does not decrypt.
 */

export class TokenCipherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenCipherError";
  }
}

const VERSION = "v1";

export function encryptToken(plaintext: string, keys: EncryptionKey[], associatedData: string): string {
  const key = keys[0];
  if (!key) throw new TokenCipherError("no token encryption key configured");
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.key, iv);
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, key.id, iv.toString("base64url"), ciphertext.toString("base64url"), tag.toString("base64url")].join(".");
}

export function decryptToken(stored: string, keys: EncryptionKey[], associatedData: string): string {
  const parts = stored.split(".");
  if (parts.length !== 5 || parts[0] !== VERSION) throw new TokenCipherError("stored token has an unknown format");
  const [, keyId, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  const key = keys.find((k) => k.id === keyId);
  if (!key) throw new TokenCipherError(`stored token was encrypted with key "${keyId}", which is no longer configured`);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(associatedData, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new TokenCipherError("stored token failed its integrity check");
  }
}

/** The key id a stored value was encrypted with (to find values still under an old key). */
export function tokenKeyId(stored: string): string | undefined {
  const parts = stored.split(".");
  return parts.length === 5 && parts[0] === VERSION ? parts[1] : undefined;
}
