import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ApiError } from './api/client';
import { AppRoutes } from './routes';
import { SessionProvider } from './session/session';

/** Only a failure that may pass is retried (no answer, 5xx); a 4xx is the API's final word. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 2 && error instanceof ApiError && (error.status === 0 || error.status >= 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  // A data router around the console's routes, so that a page with unsaved changes can hold a
  // navigation until the user confirms it (useBlocker needs one).
  const [router] = useState(() => createBrowserRouter([{ path: '*', element: <AppRoutes /> }]));
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </QueryClientProvider>
  );
}
