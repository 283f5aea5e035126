import { withDeps } from "@/lib/http/route";
import { segmentRouteDeps } from "@/lib/segments/segment-route-deps";
import { handleSegmentDelete, handleSegmentGet, handleSegmentUpdate } from "@/lib/segments/segments-routes";

export const dynamic = "force-dynamic";

export const GET = withDeps(handleSegmentGet, segmentRouteDeps);
export const PUT = withDeps(handleSegmentUpdate, segmentRouteDeps);
export const DELETE = withDeps(handleSegmentDelete, segmentRouteDeps);
