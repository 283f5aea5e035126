import { handleSessionRead, handleSessionRenewal } from "@/lib/auth/session-route";
import { withDeps } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleSessionRead, {});
export const POST = withDeps(handleSessionRenewal, {});
