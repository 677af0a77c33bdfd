import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import type { FleetSummary, PeriodKey } from './api/summary';
import styles from './monitor.module.css';
import { monitorTexts } from './texts';

/**
 * The fleet's profit of a period: its total in the organisation's base currency, with each
 * currency's own amount and the rate it converted at on hover and focus (docs/kpi.md, "Money in one
 * currency"); currencies without a rate are shown on their own, named as left out.
 */
export function ProfitTile({ summary, period }: { summary: FleetSummary; period: PeriodKey }) {
  const { t } = useTranslation();
  monitorTexts.useReady();
  const locale = currentLocale();
  const base = summary.profitBase;
  if (summary.profit.length === 0) {
    return <p className={styles.muted}>{t('state.empty')}</p>;
  }
  if (!base) {
    return (
      <ul className={styles.money} aria-label={t(`monitor.profit.${period}`)}>
        {summary.profit.map((money) => (
          <li key={money.currency}>{formatMoney(money[period], money.currency, locale)}</li>
        ))}
      </ul>
    );
  }
  const rateOf = new Map((base.rates ?? []).map((rate) => [rate.currency, rate]));
  const unconverted = new Set(base.unconverted ?? []);
  const lines = summary.profit
    .filter((money) => !unconverted.has(money.currency))
    .map((money) => {
      const amount = formatMoney(money[period], money.currency, locale);
      const rate = rateOf.get(money.currency);
      return rate
        ? t('monitor.money.line', { amount, rate: formatNumber(rate.rate, 6), currency: money.currency, base: base.currency, month: rate.month })
        : amount;
    });
  const rule = t(period === 'day' || period === 'month' ? 'monitor.money.ruleMonth' : 'monitor.money.ruleMonths');
  const detail = [rule, ...lines].join('\n');
  return (
    <div data-testid="profit-base">
      <p className={styles.moneyTotal} title={detail} tabIndex={0} aria-description={detail}>
        {formatMoney(base[period], base.currency, locale)}
      </p>
      {unconverted.size > 0 && (
        <p className={styles.caption}>
          {t('monitor.money.unconverted', { currencies: [...unconverted].join(', ') })}{' '}
          {summary.profit
            .filter((money) => unconverted.has(money.currency))
            .map((money) => formatMoney(money[period], money.currency, locale))
            .join(' · ')}
        </p>
      )}
    </div>
  );
}
