import { useEffect, useState } from 'react';

/**
 * The current time, renewed every `intervalMs`: a component that shows relative times ("2 minutes
 * ago") renders again as they age, also while the data it shows stays the same.
 */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
