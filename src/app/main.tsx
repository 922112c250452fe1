import { createRoot } from 'react-dom/client';
import { App } from './App';
import { narrowConnectSrc } from './csp';
import { readIndex, readSrc, readVs } from './url';

narrowConnectSrc(readSrc(location.search), readVs(location.search), readIndex(location.search));

const el = document.getElementById('root');
if (el) createRoot(el).render(<App />);
