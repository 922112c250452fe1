// An example dashboard that embeds Loupe as any consumer would: from the installed package
// (scripts/build-hosts.mjs builds it on React 18.3 and on React 19), with its stylesheet, two
// viewers side by side on different sessions, each reporting its selection to the host.
import { StrictMode, useState, version as reactVersion } from 'react';
import { createRoot } from 'react-dom/client';
import { SessionViewer, type CallSummary } from 'agent-loupe';
import 'agent-loupe/style.css';
import './host.css';

function Panel({ name, src }: { name: string; src: string }) {
  const [selected, setSelected] = useState<CallSummary | null>(null);
  return (
    <section className="host-panel" data-panel={name}>
      <p>
        <strong>{name}</strong> — selected: <output data-testid={`selected-${name}`}>{selected ? `${selected.label} ${selected.id}` : 'none'}</output>
      </p>
      <SessionViewer source={src} onSelectCall={setSelected} theme="light" />
    </section>
  );
}

// `?viewers=0` renders the host alone: the e2e test compares the host's styles with and without.
const withViewers = new URLSearchParams(location.search).get('viewers') !== '0';

function Dashboard() {
  return (
    <>
      <header className="host-header">
        <h1>Agent Ops</h1>
        <button type="button" data-testid="host-button">
          Host button
        </button>
      </header>
      <main className="host-grid">
        {withViewers && <Panel name="grok" src="samples/grok-esc-interrupt.updates.jsonl" />}
        {withViewers && <Panel name="gemini" src="samples/gemini-cli-live-turn.jsonl" />}
      </main>
    </>
  );
}

// The React this page really runs, for the e2e test: a host on 18.3 must not end up with another copy.
document.documentElement.dataset.reactVersion = reactVersion;

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Dashboard />
    </StrictMode>,
  );
}
