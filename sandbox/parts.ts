import type { SandboxParts } from "./app";
import { adminRoutes } from "./admin/routes";
import { resourceApi, shopMediaControl, storageControl } from "./api/routes";
import { authControl } from "./auth/control";
import { authRoutes } from "./auth/routes";
import { extensionRoutes } from "./extension/routes";
import { seedControl } from "./seed/control";
import { webhookControl, webhookSenderArea } from "./webhooks/routes";

/** Every area of the sandbox, in mount order. */
export const sandboxParts: SandboxParts = {
  areas: [authRoutes, extensionRoutes, webhookSenderArea, adminRoutes, resourceApi],
  controls: [authControl, webhookControl, storageControl, shopMediaControl, seedControl],
};
