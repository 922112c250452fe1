import { QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { readPageRoute } from '../routes/page';
import { App } from './App';
import { narrowConnectSrc } from './csp';
import { createQueryClient } from './queryClient';

const route = readPageRoute(location.search);
if (route.page === 'session') narrowConnectSrc(route.src, route.vs);
else narrowConnectSrc(null, null, route.page === 'team' ? route.index : null);

const queryClient = createQueryClient();
const el = document.getElementById('root');
if (el)
  createRoot(el).render(
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>,
  );
