import "server-only";
import { getStore } from "@/lib/store";
import { findInstallation, type InstallationStatus } from "@/lib/store/installations";
import type { ConsoleSession } from "./session";

/** `active`, `reauth_required`, or `missing` when the installation is gone (the console offers to authorize). */
export async function installationStatus(session: Pick<ConsoleSession, "openAppId" | "tenantId">): Promise<InstallationStatus | "missing"> {
  try {
    const installation = await findInstallation(await getStore(), session);
    return installation?.status ?? "missing";
  } catch {
    // A token that no longer decrypts (a removed key) needs a new authorization just the same.
    return "reauth_required";
  }
}
