import { Navigate, useLocation } from 'react-router-dom';
import { useToken } from '@/lib/storage';
import { DEFAULT_ROUTE_PATH } from '../route-config';

/** "/": the monitor when signed in, the login page otherwise. */
export function HomeRedirect() {
  const token = useToken();
  return <Navigate to={token ? DEFAULT_ROUTE_PATH : '/login'} replace />;
}

/** An old wrapper path (/stationLayout …) leads to its page, keeping the query. */
export function WrapperRedirect({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={{ pathname: to, search }} replace />;
}
