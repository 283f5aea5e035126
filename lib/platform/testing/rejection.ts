import { PlatformError } from "@/lib/platform/errors";

/** The PlatformError a call fails with; a success or any other error fails the test, saying what came instead. */
export async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  const result = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if ("error" in result && result.error instanceof PlatformError) return result.error;
  throw new Error(`expected a PlatformError, got ${"value" in result ? JSON.stringify(result.value) : String((result as { error: unknown }).error)}`);
}
