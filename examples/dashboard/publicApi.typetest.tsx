// Type test of the public props (checked by `npm run typecheck`): what a consumer may and may not
// pass. A breaking change to SessionViewerProps fails the build here.
import { SessionViewer, type CallSummary, type SessionViewerProps } from 'agent-loupe';
import { ingest, type Session } from 'agent-loupe/model';

const onSelectCall = (call: CallSummary | null): void => void call?.label;

export const accepted: SessionViewerProps[] = [
  {},
  { source: 'https://example.org/session.jsonl' },
  { source: new Blob(['{}']) },
  { source: new File(['{}'], 'session.jsonl') },
  { source: new ReadableStream<Uint8Array>() },
  { source: { text: '{"sessionUpdate":"plan","entries":[]}' } },
  { source: { records: [{ sessionUpdate: 'plan', entries: [] }] } },
  { source: 'x.jsonl', onSelectCall, theme: 'dark', initialFilter: { text: 'src/' }, className: 'mine' },
];

export const rejected: SessionViewerProps[] = [
  // @ts-expect-error a number is not a source
  { source: 42 },
  // @ts-expect-error themes are light, dark or system
  { theme: 'sepia' },
  // @ts-expect-error onSelectCall receives a call, not a string
  { onSelectCall: (id: string) => id.length },
];

export const element = <SessionViewer source="x.jsonl" />;
export const model: (source: string) => Promise<Session> = (source) => ingest(source);
