import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * Reports the address (path, query, hash) a person would see in the address bar, for a test's `location()`.
 * In a layout effect, which runs in the same commit as the page it belongs to: a passive effect can run
 * after a test has already found that page's content, and `location()` would still give the address before.
 */
export function AddressBar({ onChange }: { onChange: (address: string) => void }) {
  const { pathname, search, hash } = useLocation();
  useLayoutEffect(() => onChange(`${pathname}${search}${hash}`), [pathname, search, hash, onChange]);
  return null;
}
