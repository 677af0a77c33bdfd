import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import { configureSessionHandlers } from '@/lib/api-client';
import { i18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { createRouter } from './router';
import { resetClientState, signOut } from './session';

// A 401 forgets the session; the route guard then sends the user to the login page with a
// redirect back. Re-Login in the "Confirm logout" dialog signs out and reloads.
configureSessionHandlers({
  onUnauthorized: resetClientState,
  relogin: async () => {
    await signOut();
    window.location.reload();
  },
});

export function App() {
  const [router] = useState(createRouter);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
