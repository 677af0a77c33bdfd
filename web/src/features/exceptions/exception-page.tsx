import Button from '@arco-design/web-react/es/Button';
import Result from '@arco-design/web-react/es/Result';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Result/style/css.js';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import styles from './exception-page.module.css';

type Status = '403' | '404' | '500';

interface ExceptionPageProps {
  status: Status;
}

/** Goes back in the console's own history, or home when this page was opened directly. */
function useBack(): () => void {
  const navigate = useNavigate();
  return () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) {
      navigate(-1);
    } else {
      navigate('/', { replace: true });
    }
  };
}

function ExceptionPage({ status }: ExceptionPageProps) {
  const { t } = useTranslation();
  const back = useBack();
  const actions = [
    <Button key="back" type="primary" onClick={back}>
      {t('exception.back')}
    </Button>,
  ];
  if (status === '404') {
    actions.unshift(
      <Button key="retry" onClick={() => window.location.reload()}>
        {t('exception.retry')}
      </Button>,
    );
  }
  return (
    <section className={styles.page} aria-labelledby="exception-title">
      <Result
        status={status}
        title={<span id="exception-title">{status}</span>}
        subTitle={t(`exception.${status}.description`)}
        extra={<div className={styles.actions}>{actions}</div>}
      />
    </section>
  );
}

export function ForbiddenPage() {
  return <ExceptionPage status="403" />;
}

export function NotFoundPage() {
  return <ExceptionPage status="404" />;
}

export function ServerErrorPage() {
  return <ExceptionPage status="500" />;
}
