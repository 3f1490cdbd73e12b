import { useEffect } from 'react';

export const CONSOLE_NAME = 'Alert ingestion';

/**
 * The browser tab's title, most specific first: "Alerts · acme/web · Alert ingestion". Parts that
 * are not known yet (null, undefined, empty) are left out.
 */
export function usePageTitle(...parts: Array<string | null | undefined>): void {
  const title = [...parts.filter((part): part is string => typeof part === 'string' && part !== ''), CONSOLE_NAME].join(' · ');
  useEffect(() => {
    document.title = title;
  }, [title]);
}
