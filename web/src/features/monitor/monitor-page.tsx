import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/panel';
import { FaultTrend } from './fault-trend';
import styles from './monitor.module.css';
import { AlarmsToday, DeviceRatios, Generation } from './overview';
import { PlanChart } from './plan-chart';
import { ProfitChart } from './profit-chart';
import { MaintenanceRanking, ProjectRanking, TopDevices } from './rankings';
import { WeatherPanel } from './weather-panel';

/**
 * Monitoring centre, the landing page: the fleet's alarms, devices, generation, weather,
 * rankings and trends. Real-time figures refresh every 30 s and when the window regains focus.
 */
export function MonitorPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('menu.monitor')} />
      <div className={styles.page}>
        <div className={styles.span3}>
          <AlarmsToday />
        </div>
        <div className={styles.span3}>
          <DeviceRatios />
        </div>
        <div className={styles.span6}>
          <Generation />
        </div>
        <div className={styles.span8}>
          <ProfitChart />
        </div>
        <div className={styles.span4}>
          <WeatherPanel />
        </div>
        <div className={styles.span6}>
          <FaultTrend />
        </div>
        <div className={styles.span6}>
          <PlanChart />
        </div>
        <div className={styles.span5}>
          <TopDevices />
        </div>
        <div className={styles.span3}>
          <MaintenanceRanking />
        </div>
        <div className={styles.span4}>
          <ProjectRanking />
        </div>
      </div>
    </>
  );
}
