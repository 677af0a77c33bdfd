import type { RulesProps } from '@arco-design/web-react/es/Form/interface';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordProblem } from '@/lib/password-rule';

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PHONE_RE = /^\+?[0-9][0-9 -]{4,19}$/;
export const URL_RE = /^https?:\/\/\S+$/;

type Check = (value: string) => string | undefined;

function rule(check: Check, required = false): RulesProps[] {
  return [
    {
      required,
      validator: (value: unknown, callback: (error?: string) => void) =>
        callback(check(typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value))),
    },
  ];
}

/** The settings forms' rules (SPEC.md section 5), the same as the server's. */
export function useAccountRules() {
  const { t } = useTranslation();
  return useMemo(() => {
    const required: Check = (v) => (v.trim() ? undefined : t('account.rule.required'));
    const optional = (re: RegExp, key: string): Check => (v) => (!v.trim() || re.test(v.trim()) ? undefined : t(key));
    const max = (n: number): Check => (v) => ([...v].length <= n ? undefined : t('account.rule.max', { n }));
    return {
      name: rule((v) => required(v) ?? max(50)(v), true),
      email: rule((v) => required(v) ?? optional(EMAIL_RE, 'account.rule.email')(v), true),
      country: rule(required, true),
      area: rule(required, true),
      address: rule(max(200)),
      introduction: rule(max(200)),
      personalWebsite: rule(optional(URL_RE, 'account.rule.url')),
      phone: rule(optional(PHONE_RE, 'account.rule.phone')),
      oldPassword: rule(required, true),
      password: rule((v) => {
        const problem = passwordProblem(v);
        return problem === 'required' ? t('account.rule.required') : problem ? t('account.rule.password') : undefined;
      }, true),
    };
  }, [t]);
}
