import type { RouteLogger } from "@/lib/http/route";

/** A route logger that drops every line: for tests and benchmarks whose subject is not the log. */
export const silentLog: RouteLogger = { info() {}, warn() {}, error() {} };
