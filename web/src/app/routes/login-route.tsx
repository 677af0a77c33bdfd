import { useLocation, useNavigate } from 'react-router-dom';
import { LoginPage } from '@/features/auth/login-page';
import { afterLoginPath } from '../login-redirect';

export function LoginRoute() {
  const navigate = useNavigate();
  const { search } = useLocation();
  return <LoginPage onSuccess={() => navigate(afterLoginPath(search), { replace: true })} />;
}
