import type { ReactNode } from 'react';
import { useRole } from '@/lib/auth';

interface PermissionProps {
  /** Roles that may see the children; [] shows them to everyone. */
  roles: readonly string[];
  children: ReactNode;
}

/**
 * Hides its children unless the signed-in user's role is listed. Hiding is a convenience: the
 * server checks every call on its own (DESIGN.md section 2).
 */
export function Permission({ roles, children }: PermissionProps) {
  const role = useRole();
  if (!Array.isArray(roles)) {
    throw new Error('Permission needs a roles list, e.g. roles={["admin"]}');
  }
  if (roles.length === 0 || (role !== undefined && roles.includes(role))) {
    return <>{children}</>;
  }
  return null;
}
