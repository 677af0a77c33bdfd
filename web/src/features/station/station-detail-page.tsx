import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Progress from '@arco-design/web-react/es/Progress';
import '@arco-design/web-react/es/Progress/style/css.js';
import { IconEdit, IconLeft, IconPlus } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { PageHeader, Panel } from '@/components/panel';
import { Permission } from '@/components/permission';
import { PlainTable } from '@/components/plain-table';
import table from '@/components/plain-table.module.css';
import { StatusTag } from '@/components/status-tag';
import { formatDate, formatMoney, formatQuantity, NO_VALUE, zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { useStationDetail } from './api/stations';
import type { StationDetail } from './api/types';
import { DeviceTree } from './device-tree';
import { LatestAlarms } from './latest-alarms';
import { LocationMap } from './location-map';
import { EnergyChart, PowerCurve } from './station-charts';
import { coverUrl, TagList } from './station-list-views';
import styles from './station.module.css';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function Overview({ station }: { station: StationDetail }) {
  const { t } = useTranslation();
  const { kpis } = station;
  return (
    <Panel title={t('station.overview')}>
      <dl className={styles.kpis}>
        <Figure label={t('station.live.currentPower')} value={formatQuantity(station.currentPowerKw, 'kW', { scale: true })} />
        <Figure label={t('station.live.normalization')} value={formatQuantity(station.powerNormalization, '%', { digits: 1 })} />
        <Figure label={t('station.field.capacityKwp')} value={formatQuantity(station.capacityKwp, 'kWp', { scale: true })} />
        <Figure label={t('station.kpi.day')} value={formatQuantity(kpis.dayEnergyKwh, 'kWh', { scale: true })} />
        <Figure label={t('station.kpi.month')} value={formatQuantity(kpis.monthEnergyKwh, 'kWh', { scale: true })} />
        <Figure label={t('station.kpi.year')} value={formatQuantity(kpis.yearEnergyKwh, 'kWh', { scale: true })} />
        <Figure label={t('station.kpi.total')} value={formatQuantity(kpis.totalEnergyKwh, 'kWh', { scale: true })} />
        <Figure label={t('station.live.equivalentHours')} value={formatQuantity(kpis.equivalentHours, 'h')} />
        <Figure label={t('station.kpi.performanceRatio')} value={formatQuantity(kpis.performanceRatio, '%', { digits: 1 })} />
        <Figure label={t('station.kpi.co2')} value={formatQuantity(kpis.co2ReductionKg, 'kg', { scale: true })} />
        <Figure label={t('station.live.devices')} value={`${station.devicesOnline} / ${station.devicesTotal}`} />
        <Figure label={t('station.live.lastSeen')} value={zonedTime(station.lastSeen, station.timezone, currentLocale()).text || NO_VALUE} />
      </dl>
    </Panel>
  );
}

function Economics({ station }: { station: StationDetail }) {
  const { t } = useTranslation();
  const { kpis } = station;
  const currency = kpis.currency || station.currency;
  const money = (value: number) => formatMoney(value, currency, currentLocale());
  const payback = station.totalCost > 0 ? Math.min(100, (kpis.profitTotal / station.totalCost) * 100) : undefined;
  return (
    <Panel title={t('station.economics')}>
      <dl className={styles.info}>
        <Figure label={t('station.kpi.profitToday')} value={money(kpis.profitToday)} />
        <Figure label={t('station.kpi.profitTotal')} value={money(kpis.profitTotal)} />
        <Figure label={t('station.field.pricePerKwh')} value={`${money(station.pricePerKwh)} / kWh`} />
        <Figure label={t('station.field.subsidyPerKwh')} value={`${money(station.subsidyPerKwh)} / kWh`} />
        <Figure label={t('station.field.totalCost')} value={money(station.totalCost)} />
        <Figure label={t('station.field.dailyRepayment')} value={money(station.dailyRepayment)} />
      </dl>
      {payback !== undefined && (
        <div style={{ marginTop: 16 }}>
          <p className={styles.muted} style={{ margin: '0 0 4px' }}>
            {t('station.economics.payback')}
          </p>
          <Progress percent={Math.round(payback * 10) / 10} aria-label={t('station.economics.payback')} />
        </div>
      )}
    </Panel>
  );
}

function Information({ station }: { station: StationDetail }) {
  const { t } = useTranslation();
  const yesNo = (value: number) => (value === 1 ? t('common.yes') : t('common.no'));
  const rows: [string, string][] = [
    ['station.field.location', station.location],
    ['station.field.region', station.region],
    ['station.field.address', station.address],
    ['station.field.country', station.country],
    ['station.field.timezone', station.timezone],
    ['station.field.stationType', t(`station.stationType.${station.stationType}`)],
    ['station.field.systemType', t(`station.systemType.${station.systemType}`)],
    ['station.field.azimuth', formatQuantity(station.azimuth, '°', { digits: 1 })],
    ['station.field.inclination', formatQuantity(station.inclination, '°', { digits: 1 })],
    ['station.field.line', station.line],
    ['station.field.buildDate', station.buildDate],
    ['station.field.combineStatus', `${yesNo(station.combineStatus)} ${station.combineDate}`],
    ['station.field.gridStatus', `${yesNo(station.gridStatus)} ${station.gridDate}`],
    ['station.field.owner', [station.ownerName, station.ownerCompany, station.ownerPhone].filter(Boolean).join(' · ')],
    ['station.field.manager', [station.managerName, station.managerPhone].filter(Boolean).join(' · ')],
    ['station.field.updateTime', zonedTime(station.updateTime, station.timezone, currentLocale()).text],
  ];
  return (
    <Panel title={t('station.information')}>
      <dl className={styles.info}>
        {rows.map(([key, value]) => (
          <Figure key={key} label={t(key)} value={value || NO_VALUE} />
        ))}
      </dl>
    </Panel>
  );
}

function SubStations({ station }: { station: StationDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canAdd = station.parentId === 0;
  return (
    <Panel
      title={t('station.children.title', { count: station.children.length })}
      extra={
        canAdd && (
          <Permission roles={['admin']}>
            <Button size="small" icon={<IconPlus />} onClick={() => navigate(`/station/add?parentId=${station.id}`)}>
              {t('station.children.add')}
            </Button>
          </Permission>
        )
      }
    >
      <DataState empty={station.children.length === 0} emptyText={t('station.children.empty')} minHeight={120}>
        <PlainTable>
          <thead>
            <tr>
              <th scope="col">{t('station.field.name')}</th>
              <th scope="col">{t('station.field.communicationStatus')}</th>
              <th scope="col">{t('station.field.alarmStatus')}</th>
              <th scope="col" className={table.num}>
                {t('station.field.capacityKwp')}
              </th>
              <th scope="col" className={table.num}>
                {t('station.live.currentPower')}
              </th>
              <th scope="col" className={table.num}>
                {t('station.live.dailyEnergy')}
              </th>
            </tr>
          </thead>
          <tbody>
            {station.children.map((child) => (
              <tr key={child.id}>
                <td>
                  <button type="button" className={styles.titleLink} onClick={() => navigate(`/station/detail/${child.id}`)}>
                    {child.name}
                  </button>
                </td>
                <td>
                  <StatusTag category="communicationStatus" value={child.communicationStatus} dot />
                </td>
                <td>
                  <StatusTag category="alarmExist" value={child.alarmExist} dot />
                </td>
                <td className={table.num}>{formatQuantity(child.capacityKwp, 'kWp')}</td>
                <td className={table.num}>{formatQuantity(child.currentPowerKw, 'kW')}</td>
                <td className={table.num}>{formatQuantity(child.dailyEnergyKwh, 'kWh')}</td>
              </tr>
            ))}
          </tbody>
        </PlainTable>
      </DataState>
    </Panel>
  );
}

/** One station: KPIs, power and energy, devices, alarms, location, economics, sub-stations. */
export function StationDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const detail = useStationDetail(id);
  const station = detail.data;

  return (
    <>
      <PageHeader
        title={
          <>
            <Button shape="circle" size="small" icon={<IconLeft />} aria-label={t('common.back')} onClick={() => navigate(-1)} />
            <span>{station?.name ?? t('station.detail')}</span>
            {station && <StatusTag category="communicationStatus" value={station.communicationStatus} appearance="filled" />}
            {station && <StatusTag category="alarmExist" value={station.alarmExist} appearance="filled" />}
          </>
        }
        extra={
          station && (
            <>
              <Button icon={<IconPlus />} onClick={() => navigate(`/device/add?stationId=${station.id}`)}>
                {t('device.add')}
              </Button>
              <Button type="primary" icon={<IconEdit />} onClick={() => navigate(`/station/edit/${station.id}`)}>
                {t('common.edit')}
              </Button>
            </>
          )
        }
      />
      <DataState loading={detail.isPending} error={detail.isError} onRetry={() => void detail.refetch()} minHeight={400}>
        {station && (
          <div className={styles.grid}>
            {(station.parent || station.tags.length > 0 || station.coverImage) && (
              <div className={styles.span12} style={{ display: 'flex', gap: 16, alignItems: 'center', flexWrap: 'wrap' }}>
                {station.coverImage && (
                  <img src={coverUrl(station.coverImage)} alt={t('station.cover')} style={{ width: 120, aspectRatio: '4 / 3', objectFit: 'cover', borderRadius: 4 }} />
                )}
                {station.parent && (
                  <span className={styles.muted}>
                    {t('station.parent')}{' '}
                    <button type="button" className={styles.titleLink} onClick={() => navigate(`/station/detail/${station.parent!.id}`)}>
                      {station.parent.name}
                    </button>
                  </span>
                )}
                <TagList tags={station.tags} />
              </div>
            )}
            <div className={styles.span12}>
              <Overview station={station} />
            </div>
            <div className={styles.span6}>
              <PowerCurve stationId={station.id} timezone={station.timezone} />
            </div>
            <div className={styles.span6}>
              <EnergyChart stationId={station.id} timezone={station.timezone} />
            </div>
            <div className={styles.span6}>
              <DeviceTree station={station} subStations={station.children} />
            </div>
            <div className={styles.span6}>
              <LatestAlarms stationId={station.id} />
            </div>
            <div className={styles.span6}>
              <Panel title={t('station.map')}>
                <LocationMap lat={station.lat} lng={station.lng} name={station.name} />
              </Panel>
            </div>
            <div className={styles.span6}>
              <Economics station={station} />
            </div>
            <div className={styles.span12}>
              <SubStations station={station} />
            </div>
            <div className={styles.span12}>
              <Information station={station} />
            </div>
            <p className={`${styles.span12} ${styles.muted}`} style={{ margin: 0, fontSize: 12 }}>
              {t('station.createdAt', { date: formatDate(station.createTime) })}
            </p>
          </div>
        )}
      </DataState>
    </>
  );
}
