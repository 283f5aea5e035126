/**
 * The sandbox clock: real time plus an offset that `POST /__sandbox/clock` advances, so token
 * expiry, one-time-token expiry and last-month windows can be tested without waiting.
 */
export class Clock {
  private offsetMs = 0;

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

/** §2: response timestamps are UTC `YYYY-MM-DDTHH:MM:SSZ`. */
export function formatUtc(date: Date | number): string {
  return new Date(date).toISOString().replace(/\.\d{3}Z$/, "Z");
}
