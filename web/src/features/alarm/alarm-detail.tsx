import Button from '@arco-design/web-react/es/Button';
import Drawer from '@arco-design/web-react/es/Drawer';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Drawer/style/css.js';
import { IconClose } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { Facts } from '@/components/facts';
import { AlarmOrders, workOrderHref } from './alarm-orders';
import { AlarmLevelTag, AlarmStatusTag, DealStatusText } from './alarm-tags';
import styles from './alarm.module.css';
import { type AlarmDetail, useAlarmDetail } from './api/alarms';
import { DealDialog } from './deal-dialog';
import { formatInZone, splitDuration } from './format-time';

/** "2 d 3 h", "3 h 5 min", "12 min". */
export function useDurationText(): (minutes: number) => string {
  const { t } = useTranslation();
  return (minutes) => {
    const { days, hours, minutes: rest } = splitDuration(minutes);
    if (days > 0) {
      return t('alarm.duration.days', { days, hours });
    }
    if (hours > 0) {
      return t('alarm.duration.hours', { hours, minutes: rest });
    }
    return t('alarm.duration.minutes', { minutes: rest });
  };
}

function DetailBody({ alarm, onDeal }: { alarm: AlarmDetail; onDeal: () => void }) {
  const { t } = useTranslation();
  const duration = useDurationText();
  const navigate = useNavigate();
  const time = (value: string | null) => formatInZone(value, alarm.timezone);
  const openOrder = alarm.openOrder;
  return (
    <>
      <div className={styles.detailHead}>
        <AlarmLevelTag level={alarm.level} />
        <AlarmStatusTag status={alarm.alarmStatus} />
        <DealStatusText status={alarm.dealStatus} label={t(`alarm.dealStatus.${alarm.dealStatus}`)} />
      </div>
      <p className={styles.description}>{alarm.description}</p>
      <h3 className={styles.subTitle}>{t('alarm.detail.times')}</h3>
      <Facts
        items={[
          [t('alarm.field.occurTime'), time(alarm.occurTime)],
          [t('alarm.field.startTime'), time(alarm.startTime)],
          [t('alarm.field.lastAlarmTime'), time(alarm.lastAlarmTime)],
          [t('alarm.field.recoveryTime'), alarm.recoveryTime ? time(alarm.recoveryTime) : t('alarm.detail.ongoing')],
          [t('alarm.field.duration'), duration(alarm.durationMin)],
          [t('alarm.field.timezone'), alarm.timezone],
        ]}
      />
      <h3 className={styles.subTitle}>{t('alarm.detail.source')}</h3>
      <Facts
        items={[
          [t('alarm.field.station'), alarm.stationName],
          [t('alarm.field.device'), alarm.deviceName],
          [t('alarm.field.deviceSn'), alarm.deviceSn],
          [t('alarm.field.deviceType'), t(`alarm.deviceType.${alarm.deviceType}`, { defaultValue: alarm.deviceType })],
          [t('alarm.field.type'), t(`alarm.type.${alarm.type}`)],
          [t('alarm.field.rule'), alarm.ruleName || alarm.rule],
        ]}
      />
      <AlarmOrders alarm={alarm} />
      <div className={styles.historyHead}>
        <h3 className={styles.subTitle}>{t('alarm.detail.history')}</h3>
        <span className={styles.actions}>
          {openOrder ? (
            <Button size="small" onClick={() => navigate(workOrderHref(openOrder.id))}>
              {t('alarm.action.viewWorkOrder')}
            </Button>
          ) : (
            <Button size="small" onClick={() => navigate(`/operations/workorder?new=1&alarmId=${alarm.id}`)}>
              {t('alarm.action.workOrder')}
            </Button>
          )}
          <Button type={alarm.dealStatus === 0 ? 'primary' : 'secondary'} size="small" onClick={onDeal}>
            {alarm.dealStatus === 0 ? t('alarm.action.deal') : t('alarm.action.dealAgain')}
          </Button>
        </span>
      </div>
      {alarm.deals.length === 0 ? (
        <p className={styles.muted}>{t('alarm.detail.noHistory')}</p>
      ) : (
        <ol className={styles.history} aria-label={t('alarm.detail.history')}>
          {alarm.deals
            .slice()
            .reverse()
            .map((deal) => (
              <li key={deal.id}>
                <div className={styles.historyMeta}>
                  <span>{time(deal.time)}</span>
                  <span>{deal.userName}</span>
                  <span className={styles.method}>{deal.dealMethodName || t(`alarm.dealMethod.${deal.dealMethod}`)}</span>
                </div>
                <p className={styles.reason}>{deal.reason}</p>
              </li>
            ))}
        </ol>
      )}
    </>
  );
}

interface AlarmDetailDrawerProps {
  id: number | undefined;
  onClose: () => void;
}

/** One alarm (GET /v2/warn/detail/{id}): its times, source, description and deal history; deal from here. */
export function AlarmDetailDrawer({ id, onClose }: AlarmDetailDrawerProps) {
  const { t } = useTranslation();
  const detail = useAlarmDetail(id);
  const [dealing, setDealing] = useState(false);
  const alarm = detail.data;
  const title = alarm ? t('alarm.detail.titleOf', { id: alarm.id }) : t('alarm.detail.title');
  // Arco's drawer passes other props to its wrapper: announce it as a dialog named by its title.
  const dialog = { role: 'dialog', 'aria-modal': true, 'aria-label': title } as object;

  return (
    <>
      <Drawer
        {...dialog}
        width={520}
        title={title}
        visible={id !== undefined}
        onCancel={onClose}
        closeIcon={
          <button type="button" className={styles.close} aria-label={t('alarm.detail.close')}>
            <IconClose />
          </button>
        }
        footer={null}
        unmountOnExit
        focusLock
        autoFocus
      >
        <DataState
          loading={detail.isPending}
          error={detail.isError}
          onRetry={() => void detail.refetch()}
          minHeight={240}
        >
          {alarm && <DetailBody alarm={alarm} onDeal={() => setDealing(true)} />}
        </DataState>
      </Drawer>
      {alarm && <DealDialog alarm={alarm} visible={dealing} onClose={() => setDealing(false)} />}
    </>
  );
}
