import { useQueryClient } from '@tanstack/react-query';
import { createContext, ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { ApiClient, createApiClient } from '../api/client';
import { CurrentUser } from '../api/types';

/** Kept for the browser tab only: closing the tab signs out. */
export const SESSION_STORAGE_KEY = 'alert-console.session';

interface StoredSession {
  token: string;
  user: CurrentUser;
}

export interface Session {
  token: string | null;
  user: CurrentUser | null;
  /** Why the last session ended (the API's 401 message), shown on the sign-in page. */
  signedOutReason: string | null;
  /** The user ended the last session (Sign out), rather than the API. */
  signedOut: boolean;
  api: ApiClient;
  signIn(token: string, user: CurrentUser): void;
  signOut(reason?: string): void;
}

const SessionContext = createContext<Session | null>(null);

function readStored(): StoredSession | null {
  try {
    const text = sessionStorage.getItem(SESSION_STORAGE_KEY);
    if (!text) return null;
    const stored = JSON.parse(text) as Partial<StoredSession>;
    return typeof stored.token === 'string' && stored.user ? (stored as StoredSession) : null;
  } catch {
    return null;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [stored, setStored] = useState<StoredSession | null>(readStored);
  const [signedOutReason, setSignedOutReason] = useState<string | null>(null);
  const [signedOut, setSignedOut] = useState(false);

  const signOut = useCallback(
    (reason?: string) => {
      sessionStorage.removeItem(SESSION_STORAGE_KEY);
      setStored(null);
      setSignedOutReason(reason ?? null);
      setSignedOut(reason === undefined);
      // Nothing one user saw may be shown to the next.
      queryClient.clear();
    },
    [queryClient],
  );

  const signIn = useCallback((token: string, user: CurrentUser) => {
    const session = { token, user };
    sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
    setStored(session);
    setSignedOutReason(null);
    setSignedOut(false);
  }, []);

  const token = stored?.token ?? null;
  const api = useMemo(() => createApiClient(token, (reason) => signOut(`You were signed out: ${reason}`)), [token, signOut]);

  const session = useMemo<Session>(
    () => ({ token, user: stored?.user ?? null, signedOutReason, signedOut, api, signIn, signOut }),
    [token, stored, signedOutReason, signedOut, api, signIn, signOut],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

export function useApi(): ApiClient {
  return useSession().api;
}
