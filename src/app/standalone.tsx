// The viewer inside an html export: the session is in the page itself (base64, in a data block),
// so it opens from disk with no network. Built by vite.export.config.ts into one script.
import { createRoot } from 'react-dom/client';
import { SessionViewer } from '../embed';
import './app.css';

const data = document.getElementById('loupe-session');
const root = document.getElementById('root');
if (data && root) {
  const bytes = Uint8Array.from(atob(data.textContent ?? ''), (char) => char.charCodeAt(0));
  const name = data.dataset.name ?? 'session.jsonl';
  createRoot(root).render(<SessionViewer source={new File([bytes], name)} />);
}
