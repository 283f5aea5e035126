/** The Events strings the shell and the customer page show before anything is loaded (in the global dictionary). */
export const eventsShellEn = {
  "nav.events": "Events",
  "recordEvent.open": "Record an event",
} as const;

export const eventsShellZhCN: Record<keyof typeof eventsShellEn, string> = {
  "nav.events": "事件",
  "recordEvent.open": "记录事件",
};
