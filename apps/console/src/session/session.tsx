import { useQueryClient } from '@tanstack/react-query';
import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiClient, createApiClient } from '@console/api/client';
import { CurrentUser } from '@console/api/types';

/**
 * Kept in the origin's `localStorage`, so every tab of the console shares one session: a link
 * opened in a new tab is signed in. Signing out (or a 401) removes it, and the `storage` event the
 * browser sends the other tabs of the origin signs them out too (docs/console.md "Session").
 */
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
    return parseStored(localStorage.getItem(SESSION_STORAGE_KEY));
  } catch {
    return null;
  }
}

/** The stored session's text as a session, or null (none, or not one). */
export function parseStored(text: string | null): StoredSession | null {
  try {
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
      localStorage.removeItem(SESSION_STORAGE_KEY);
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
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
    setStored(session);
    setSignedOutReason(null);
    setSignedOut(false);
  }, []);

  // Another tab signed out, was signed out, or signed in (as someone else): this tab follows it.
  // The browser fires `storage` only in the origin's other tabs, never in the one that wrote.
  useEffect(() => {
    const follow = (event: StorageEvent) => {
      if (event.storageArea !== localStorage || (event.key !== SESSION_STORAGE_KEY && event.key !== null)) return;
      const current = stored;
      const next = parseStored(event.newValue);
      if (next?.token === current?.token) return;
      // Nothing one user saw may be shown to the next.
      if (current !== null) queryClient.clear();
      if (next === null) {
        setSignedOutReason('You were signed out in another tab.');
        setSignedOut(false);
      } else {
        setSignedOutReason(null);
        setSignedOut(false);
      }
      setStored(next);
    };
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  }, [stored, queryClient]);

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
