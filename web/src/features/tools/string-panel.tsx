import Form from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import { Panel } from '@/components/panel';
import { formatNumber } from '@/lib/format';
import { type StringInput, type StringResult, useCheckString } from './api';
import { type NumberField, NumberForm } from './number-form';
import styles from './tools.module.css';

const FIELDS: readonly NumberField[] = [
  { name: 'modulesPerString', integer: true },
  { name: 'moduleVocV', step: 0.1 },
  { name: 'moduleVmpV', step: 0.1 },
  { name: 'vocCoeffPctPerC', step: 0.01 },
  { name: 'vmpCoeffPctPerC', step: 0.01 },
  { name: 'inverterMaxDcV', step: 10 },
  { name: 'mpptMinV', step: 10 },
  { name: 'mpptMaxV', step: 10 },
  { name: 'siteMinAirC' },
  { name: 'siteMaxAirC' },
];

const START: StringInput = {
  modulesPerString: 18,
  moduleVocV: 49.5,
  moduleVmpV: 41.6,
  vocCoeffPctPerC: -0.27,
  vmpCoeffPctPerC: -0.35,
  inverterMaxDcV: 1100,
  mpptMinV: 200,
  mpptMaxV: 1000,
  siteMinAirC: -10,
  siteMaxAirC: 38,
};

/** The string sizing check. */
export function StringPanel() {
  const { t } = useTranslation();
  const [form] = Form.useForm<StringInput>();
  const check = useCheckString();
  return (
    <Panel title={t('tools.string.title')}>
      <p className={styles.intro}>{t('tools.string.intro')}</p>
      <div className={styles.split}>
        <NumberForm
          form={form}
          fields={FIELDS}
          initialValues={START}
          submitLabel={t('tools.string.submit')}
          pending={check.isPending}
          onSubmit={(values) => check.mutateAsync(values)}
        />
        {check.data && <StringAnswer result={check.data} />}
      </div>
    </Panel>
  );
}

function StringAnswer({ result }: { result: StringResult }) {
  const { t } = useTranslation();
  const temp: Record<string, number> = { vocCold: result.cellMinC, vmpCold: result.cellMinC, vmpHot: result.cellMaxC };
  return (
    <div aria-live="polite">
      <p className={result.ok ? styles.pass : styles.fail} role="status">
        {result.ok ? '✓ ' : '✗ '}
        {t(result.ok ? 'tools.string.ok' : 'tools.string.fail')}
      </p>
      <ul className={styles.checks}>
        {result.checks.map((c) => (
          <li key={c.key}>
            <span className={c.ok ? styles.pass : styles.fail}>{c.ok ? '✓' : '✗'}</span>{' '}
            {t(`tools.string.check.${c.key}`, { temp: formatNumber(temp[c.key], 0) })}: {formatNumber(c.valueV, 1)} V / {formatNumber(c.limitV, 0)} V
          </li>
        ))}
      </ul>
      <p>
        {result.recommendedRangeExists
          ? t('tools.string.range', { min: result.minModules, max: result.maxModules })
          : t('tools.string.noRange')}
      </p>
    </div>
  );
}
