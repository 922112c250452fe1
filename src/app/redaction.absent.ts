// What the html export's viewer has in place of the redaction ruleset (vite.export.config.ts swaps
// this module in for src/share/redact/redactLine.ts and detect.ts). The page does not offer
// redaction (SessionViewer's offerRedaction={false}): its session was redacted, or deliberately
// not, when it was exported, and secretlint's preset alone was a third of the page.
const absent = (): Promise<never> => Promise.reject(new Error('an html export carries no redaction: export the session again with --redact'));

export const redactLines = absent;
export const redactText = absent;
