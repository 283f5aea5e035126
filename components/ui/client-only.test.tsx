import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { clientOnly } from "./client-only";

function Text({ text }: { text: string }) {
  return <p>{text}</p>;
}

describe("clientOnly", () => {
  it("renders only its placeholder on the server and never loads the code there", () => {
    const load = vi.fn(async () => Text);
    const Lazy = clientOnly(load, { loading: () => <span>waiting</span> });
    expect(renderToString(<Lazy text="loaded" />)).toBe("<span>waiting</span>");
    expect(load).not.toHaveBeenCalled();
  });

  it("renders nothing on the server without a placeholder", () => {
    const Lazy = clientOnly(async () => Text);
    expect(renderToString(<Lazy text="loaded" />)).toBe("");
  });
});
