import { useCallback, useEffect, useState } from 'react';

/** Counts whole seconds down from `start` to 0; `restart` begins again. */
export function useCountdown(start: number) {
  const [left, setLeft] = useState(start);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  const restart = useCallback(() => setLeft(start), [start]);
  return { left, restart };
}
