// The app's one QueryClient, made once by main.tsx: the listings and tables the page reads from
// `loupe open` (and a team's host) are its queries. The embedded viewer uses none (src/embed).
import { QueryClient } from '@tanstack/react-query';
import { retryUnlessLasting } from '../routes/queries';

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: retryUnlessLasting } } });
}
