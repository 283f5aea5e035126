import { requireApiSession } from "@/lib/auth/session";
import { handleSessionRead, handleSessionRenewal } from "@/lib/auth/session-route";
import { withDeps } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleSessionRead, { requireSession: requireApiSession });
export const POST = withDeps(handleSessionRenewal, {});
