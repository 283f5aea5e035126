import { lookupOrderNo, type OrderLookup } from "./order-lookup";

/**
 * One save per intent on the order form. An intent runs from the person's click until the order is
 * sent and answered, the question before saving ("Replace order …", amounts) is answered, or the
 * look-up fails; a click meanwhile (the second half of a double click, a click in the frame between
 * the look-up's answer and the question's dialog taking the page) does nothing. The look-up of a
 * number that is already being looked up is shared, not sent again: one question per number.
 */
export type SaveIntent = {
  readonly running: boolean;
  /** Starts an intent; false (the click is dropped) while one runs. */
  begin(): boolean;
  end(): void;
  /** The number's look-up (`lookupOrderNo`), one request in flight per number. */
  lookup(read: (orderNo: string) => Promise<unknown>, orderNo: string): Promise<OrderLookup>;
};

export function createSaveIntent(onChange?: (running: boolean) => void): SaveIntent {
  let running = false;
  const inFlight = new Map<string, Promise<OrderLookup>>();
  const set = (next: boolean) => {
    if (running === next) return;
    running = next;
    onChange?.(next);
  };
  return {
    get running() {
      return running;
    },
    begin() {
      if (running) return false;
      set(true);
      return true;
    },
    end() {
      set(false);
    },
    lookup(read, orderNo) {
      const shared = inFlight.get(orderNo);
      if (shared) return shared;
      const flight = lookupOrderNo(read, orderNo).finally(() => inFlight.delete(orderNo));
      inFlight.set(orderNo, flight);
      return flight;
    },
  };
}
