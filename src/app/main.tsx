import { createRoot } from 'react-dom/client';
import { readPageRoute } from '../routes/page';
import { App } from './App';
import { narrowConnectSrc } from './csp';

const route = readPageRoute(location.search);
if (route.page === 'session') narrowConnectSrc(route.src, route.vs);
else narrowConnectSrc(null, null, route.page === 'team' ? route.index : null);

const el = document.getElementById('root');
if (el) createRoot(el).render(<App />);
