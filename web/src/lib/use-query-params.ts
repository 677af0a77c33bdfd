import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

/**
 * The address's query as URLSearchParams, and a setter that replaces it (lists keep their
 * filters in the address, so Back and the tab bar return to the same view). Built on
 * useLocation and useNavigate, which the shell already uses, to keep the entry chunk small.
 */
export function useQueryParams(): [URLSearchParams, (update: (current: URLSearchParams) => URLSearchParams) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useCallback(
    (update: (current: URLSearchParams) => URLSearchParams) => {
      const search = update(new URLSearchParams(location.search)).toString();
      navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
    },
    [location.pathname, location.search, navigate],
  );
  return [params, set];
}
