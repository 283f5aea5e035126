import net from "node:net";

/** True when something already listens on `port` (checked on IPv4 and IPv6 loopback). */
export async function portInUse(port: number): Promise<boolean> {
  const tryConnect = (host: string) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect({ host, port });
      socket.setTimeout(500);
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("timeout", () => (socket.destroy(), resolve(false)));
      socket.once("error", () => resolve(false));
    });
  const results = await Promise.all([tryConnect("127.0.0.1"), tryConnect("::1")]);
  return results.some(Boolean);
}

/** Waits until `url` answers 2xx, or throws after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = new Error(`HTTP ${res.status}`);
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms: ${String(last)}`);
}
