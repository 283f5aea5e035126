import type { SandboxParts } from "./app";
import { adminRoutes } from "./admin/routes";

/** Every area of the sandbox, in mount order. */
export const sandboxParts: SandboxParts = {
  areas: [adminRoutes],
  controls: [],
};
