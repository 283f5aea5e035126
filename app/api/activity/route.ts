import { requireApiSession } from "@/lib/auth/session";
import { withDeps } from "@/lib/http/route";
import { getStore } from "@/lib/store";
import { handleActivityRequest } from "@/lib/webhooks/activity-endpoint";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleActivityRequest, { store: getStore, requireSession: requireApiSession });
