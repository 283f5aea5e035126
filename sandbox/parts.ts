import type { SandboxParts } from "./app";
import { adminRoutes } from "./admin/routes";
import { authControl } from "./auth/control";
import { authRoutes } from "./auth/routes";
import { extensionRoutes } from "./extension/routes";
import { webhookControl, webhookSenderArea } from "./webhooks/routes";

/** Every area of the sandbox, in mount order. */
export const sandboxParts: SandboxParts = {
  areas: [authRoutes, extensionRoutes, webhookSenderArea, adminRoutes],
  controls: [authControl, webhookControl],
};
