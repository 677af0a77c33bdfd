import type { RulesProps } from '@arco-design/web-react/es/Form/interface';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordProblem } from '@/lib/password-rule';

export const USERNAME_RE = /^[A-Za-z0-9_.-]{3,32}$/;
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PHONE_RE = /^\+?[0-9][0-9 -]{4,19}$/;

type Check = (value: unknown) => string | undefined;

function rule(check: Check, required = false): RulesProps[] {
  return [
    {
      required,
      validator: (value: unknown, callback: (error?: string) => void) => callback(check(value)),
    },
  ];
}

/**
 * The user form's rules (SPEC.md section 5: username, real name, department, email, phone and
 * role required; the one password rule), the same as the server's.
 */
export function useUserRules() {
  const { t } = useTranslation();
  return useMemo(() => {
    const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
    const required: Check = (value) => (text(value) ? undefined : t('org.rule.required'));
    return {
      username: rule((v) => required(v) ?? (USERNAME_RE.test(text(v)) ? undefined : t('org.rule.username')), true),
      password: rule((v) => {
        const problem = passwordProblem(typeof v === 'string' ? v : '');
        return problem === 'required' ? t('org.rule.required') : problem ? t('org.rule.password') : undefined;
      }, true),
      name: rule(required, true),
      deptId: rule((v) => (typeof v === 'number' && v > 0 ? undefined : t('org.rule.required')), true),
      email: rule((v) => required(v) ?? (EMAIL_RE.test(text(v)) ? undefined : t('org.rule.email')), true),
      phone: rule((v) => required(v) ?? (PHONE_RE.test(text(v)) ? undefined : t('org.rule.phone')), true),
      role: rule((v) => (v === 'admin' || v === 'user' ? undefined : t('org.rule.required')), true),
    };
  }, [t]);
}
