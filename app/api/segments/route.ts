import { withDeps } from "@/lib/http/route";
import { segmentRouteDeps } from "@/lib/segments/segment-route-deps";
import { handleSegmentCreate, handleSegmentsList } from "@/lib/segments/segments-routes";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleSegmentsList, segmentRouteDeps);
export const POST = withDeps(handleSegmentCreate, segmentRouteDeps);
