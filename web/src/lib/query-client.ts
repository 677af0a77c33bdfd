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
