import type { FrameLocator, Locator } from "@playwright/test";

/** Fills line `index` (from 0) of the order form as staff type it; a field left out is left as it is. */
export async function fillOrderLine(frame: FrameLocator, index: number, line: { product: string; quantity?: string; unitPrice?: string }): Promise<Locator> {
  const row = frame.getByTestId("order-line").nth(index);
  await row.getByRole("textbox", { name: "Product *" }).fill(line.product);
  if (line.quantity !== undefined) await row.getByRole("textbox", { name: "Quantity *" }).fill(line.quantity);
  if (line.unitPrice !== undefined) await row.getByRole("textbox", { name: "Unit price" }).fill(line.unitPrice);
  return row;
}
