import { Navigate, useLocation, useParams } from 'react-router-dom';

/** /redirect/<path>: re-opens <path>, which remounts its page (how a tab is reloaded). */
export function RedirectRoute() {
  const { '*': path = '' } = useParams();
  const { search } = useLocation();
  return <Navigate to={{ pathname: `/${path}`, search }} replace />;
}
