import { QueryClient } from '@tanstack/react-query';

/**
 * Server state lives here. Failures are already shown by the request layer's error catalogue, so
 * queries do not retry on their own (a retry would show the same message twice).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/**
 * Real-time figures refresh on their own: every 30 s, and when the window regains focus. Spread
 * into a query's options.
 */
export const LIVE_QUERY = {
  refetchInterval: 30_000,
  refetchOnWindowFocus: true,
  staleTime: 0,
} as const;
