import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import { formatNumber } from '@/lib/format';
import { useCO2Factors } from './api';
import styles from './tools.module.css';

/** The grid CO₂ factors per country, and the factor the KPIs use. */
export function CO2Panel() {
  const { t, i18n } = useTranslation();
  const factors = useCO2Factors();
  const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
  return (
    <Panel title={t('tools.co2.title')}>
      <DataState loading={factors.isPending} error={factors.isError} onRetry={() => void factors.refetch()} minHeight={120}>
        {factors.data && (
          <>
            <p className={styles.intro}>
              {t('tools.co2.kpi', { factor: formatNumber(factors.data.kpiFactorKgPerKwh, 3) })} {t('tools.co2.note')}
            </p>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">{t('tools.co2.country')}</th>
                  <th scope="col" className={styles.num}>
                    {t('tools.co2.factor')}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t('tools.co2.year')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {factors.data.countries.map((c) => (
                  <tr key={c.country}>
                    <td>
                      {names.of(c.country) ?? c.country} ({c.country})
                    </td>
                    <td className={styles.num}>{formatNumber(c.kgPerKwh, 2)}</td>
                    <td className={styles.num}>{c.year}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </DataState>
    </Panel>
  );
}
