import { describe, expect, it, vi } from "vitest";
import { exportFileName } from "@/lib/csv";
import { ApiError, ReauthRequiredError } from "@/lib/http/api-error";
import { downloadCsv, ExportFailedError, type CsvSink } from "./csv-download";

function memorySink() {
  const chunks: Uint8Array[] = [];
  const state = { closed: false, aborted: false };
  const sink: CsvSink = {
    write: async (c) => void chunks.push(c),
    close: async () => void (state.closed = true),
    abort: async () => void (state.aborted = true),
  };
  return { sink, state, text: () => new TextDecoder().decode(Buffer.concat(chunks)) };
}

/** A streamed body: the pieces, then (optionally) a failure, like a server that stops midway. */
function streamed(pieces: string[], fail?: Error): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < pieces.length) controller.enqueue(encoder.encode(pieces[i++]!));
      else if (fail) controller.error(fail);
      else controller.close();
    },
  });
}

const base = { openAppId: () => "oa-alpha", sessionToken: () => "sealed-token" };

describe("downloading a streamed CSV export", () => {
  it("sends the environment, the fallback session token and the export header; counts rows as they arrive", async () => {
    const fetch = vi.fn(async () => new Response(streamed(["\uFEFFid,remark\r\n1,\"a\r\n", "b\"\r\n2,x\r\n", "3,y\r\n"]), { headers: { "content-type": "text/csv" } }));
    const { sink, state, text } = memorySink();
    const progress: number[] = [];
    const result = await downloadCsv("/api/export/customers?stage=lead", sink, { ...base, fetch, signal: new AbortController().signal, onProgress: (n) => progress.push(n) });
    expect(result).toEqual({ rows: 3 });
    expect(progress).toEqual([0, 2, 3]);
    expect(state).toEqual({ closed: true, aborted: false });
    expect(text()).toContain('1,"a\r\nb"');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/export/customers?stage=lead");
    const headers = new Headers(init.headers);
    expect(headers.get("x-open-app-id")).toBe("oa-alpha");
    expect(headers.get("authorization")).toBe("Bearer sealed-token");
    expect(headers.get("x-engage-request")).toBe("1");
  });

  it("a failure midway is an ExportFailedError with the rows received, and nothing is kept", async () => {
    const fetch = vi.fn(async () => new Response(streamed(["id\r\n1\r\n2\r\n"], new TypeError("network error"))));
    const { sink, state } = memorySink();
    const error = await downloadCsv("/x", sink, { ...base, fetch, signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportFailedError);
    expect((error as ExportFailedError).rows).toBe(2);
    expect(state).toEqual({ closed: false, aborted: true });
  });

  it("follows 401 reauth_required like browser-fetch, and keeps nothing", async () => {
    const fetch = vi.fn(async () => Response.json({ error: { code: "reauth_required", message: "Sign-in required", redirect: "/api/auth/start?openAppId=oa-alpha" } }, { status: 401 }));
    const onReauth = vi.fn();
    const { sink, state } = memorySink();
    await expect(downloadCsv("/x", sink, { ...base, fetch, onReauth, signal: new AbortController().signal })).rejects.toBeInstanceOf(ReauthRequiredError);
    expect(onReauth).toHaveBeenCalledWith("/api/auth/start?openAppId=oa-alpha");
    expect(state.aborted).toBe(true);
  });

  it("turns other refusals into ApiError (status, code, message)", async () => {
    const fetch = vi.fn(async () => Response.json({ error: { code: "400001", message: "bad filter", requestId: "r1" } }, { status: 422 }));
    const error = await downloadCsv("/x", memorySink().sink, { ...base, fetch, signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: "400001", message: "bad filter" });
  });

  it("cancelling aborts the request and drops what was received", async () => {
    const controller = new AbortController();
    const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
      const signal = init!.signal!;
      return new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new TextEncoder().encode("id\r\n1\r\n"));
            signal.addEventListener("abort", () => c.error(signal.reason));
          },
        }),
      );
    });
    const { sink, state } = memorySink();
    const done = downloadCsv("/x", sink, { ...base, fetch: fetch as unknown as typeof globalThis.fetch, signal: controller.signal, onProgress: () => controller.abort() });
    await expect(done).rejects.toMatchObject({ name: "AbortError" });
    expect(state.aborted).toBe(true);
  });

  it("names the file by the day in UTC+8", () => {
    expect(exportFileName("customers", new Date("2026-11-22T17:00:00Z"))).toBe("customers-2026-11-23.csv");
    expect(exportFileName("customers", new Date("2026-11-22T15:59:59Z"))).toBe("customers-2026-11-22.csv");
  });
});
