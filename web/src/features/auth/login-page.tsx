import { useTranslation } from 'react-i18next';
import { LocaleLinks } from '@/components/locale-links';
import { Logo } from '@/components/logo';
import { useAppTitle } from '@/lib/branding';
import { notifySuccess } from '@/lib/notify';
import { LoginForm } from './login-form';
import styles from './login.module.css';

interface LoginPageProps {
  /** Where to go once signed in; the app decides (the redirect target or the monitor). */
  onSuccess: () => void;
}

export function LoginPage({ onSuccess }: LoginPageProps) {
  const { t } = useTranslation();
  const title = useAppTitle();
  return (
    <div className={styles.page}>
      <aside className={styles.banner} aria-hidden="true">
        <div className={styles.bannerInner}>
          <Logo size={56} />
          <p className={styles.bannerTitle}>{t('login.banner.title')}</p>
          <p className={styles.bannerText}>{t('login.banner.text')}</p>
        </div>
      </aside>
      <main className={styles.main}>
        <div className={styles.toolbar}>
          <LocaleLinks />
        </div>
        <div className={styles.panel}>
          <div className={styles.brand}>
            <Logo size={32} />
            <span>{title}</span>
          </div>
          <h1 className={styles.title}>{t('login.title')}</h1>
          <p className={styles.subtitle}>{t('login.subtitle')}</p>
          <LoginForm
            onSuccess={() => {
              notifySuccess(t('login.welcome', { title }));
              onSuccess();
            }}
          />
        </div>
      </main>
    </div>
  );
}
