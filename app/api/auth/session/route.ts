import { requireApiSession } from "@/lib/auth/session";
import { installationStatus } from "@/lib/auth/installation-status";

export const dynamic = "force-dynamic";

/** The console's own session (ids and names, no token) and whether the installation needs re-authorization. */
export async function GET(request: Request) {
  const result = await requireApiSession(request);
  if (!result.ok) return result.response;
  const { session } = result;
  return Response.json(
    { session, installation: { status: await installationStatus(session) } },
    { headers: { "Cache-Control": "no-store" } },
  );
}
