import type { SandboxParts } from "./app";
import { adminRoutes } from "./admin/routes";
import { resourceApi, storageControl } from "./api/routes";
import { seedControl } from "./seed/control";

/** Every area of the sandbox, in mount order. */
export const sandboxParts: SandboxParts = {
  areas: [adminRoutes, resourceApi],
  controls: [storageControl, seedControl],
};
