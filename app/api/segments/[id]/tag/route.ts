import { withDeps } from "@/lib/http/route";
import { segmentRouteDeps } from "@/lib/segments/segment-route-deps";
import { handleSegmentTag } from "@/lib/segments/segments-routes";

export const dynamic = "force-dynamic";

export const POST = withDeps(handleSegmentTag, segmentRouteDeps);
