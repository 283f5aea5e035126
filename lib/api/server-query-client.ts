import "server-only";
import { cache } from "react";
import { makeQueryClient } from "./query-client";

/** One QueryClient per server request (React `cache` is per request): prefetches share it. */
export const getServerQueryClient = cache(() => makeQueryClient());
