import { useEffect } from 'react';
import { useAppTitle } from '@/lib/branding';

/** Keeps the browser tab's title on the brand (or the translated intranet title). */
export function useDocumentTitle(): void {
  const title = useAppTitle();
  useEffect(() => {
    document.title = title;
  }, [title]);
}
