import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { IconEdit, IconLeft } from '@arco-design/web-react/icon';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { Chart, type ChartSpec } from '@/components/chart/chart';
import { DataState } from '@/components/data-state';
import { RangePicker } from '@/components/date-pickers';
import { PageHeader, Panel } from '@/components/panel';
import { PlainTable } from '@/components/plain-table';
import { LabelledSelect, Option } from '@/components/select';
import { StatusTag } from '@/components/status-tag';
import {
  browserTimeZone,
  formatDateTimeIn,
  formatNumber,
  formatQuantity,
  NO_VALUE,
  startOfDayIn,
  todayIn,
  toRfc3339,
  zonedTime,
  zoneName,
} from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { useStationZones } from '@/lib/stations';
import { type Attribute, type DeviceDetail, type Metric, metricsFor, useAttributes, useDeviceDetail, useHistory } from './api/devices';
import styles from './device.module.css';

function Value({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** The latest sample's values that matter for the device's type. */
function RealTime({ device, zone }: { device: DeviceDetail; zone?: string }) {
  const { t } = useTranslation();
  const sample = device.latest;
  const storage = device.type === 'battery' || device.type === 'storage';
  return (
    <Panel
      title={t('device.realtime')}
      extra={sample && <span className={styles.muted}>{t('device.realtime.at', { time: zonedTime(sample.time, zone, currentLocale()).text })}</span>}
    >
      <DataState empty={!sample} emptyText={t('device.realtime.none')} minHeight={120}>
        {sample && (
          <dl className={styles.values}>
            <Value label={t('device.metric.power')} value={formatQuantity(sample.powerKw, 'kW')} />
            {device.type !== 'meter' && <Value label={t('device.live.today')} value={formatQuantity(device.todayKwh, 'kWh')} />}
            {/* lifetime: opening counter + recorded roll-ups, the list's figure (not the device's own counter) */}
            <Value label={t('device.live.total')} value={formatQuantity(device.totalKwh, 'kWh', { scale: true })} />
            {(storage || device.type === 'meter') && (
              <Value label={t(`device.metric.energy2.${device.type}`)} value={formatQuantity(sample.energy2Kwh, 'kWh', { scale: true })} />
            )}
            {storage && <Value label={t('device.metric.soc')} value={formatQuantity(sample.soc, '%', { digits: 1 })} />}
            {device.type !== 'meter' && <Value label={t('device.metric.dcVoltage')} value={formatQuantity(sample.dcVoltageV, 'V', { digits: 1 })} />}
            {device.type !== 'meter' && <Value label={t('device.metric.dcCurrent')} value={formatQuantity(sample.dcCurrentA, 'A', { digits: 2 })} />}
            <Value label={t('device.metric.acVoltage')} value={formatQuantity(sample.acVoltageV, 'V', { digits: 1 })} />
            <Value label={t('device.metric.frequency')} value={formatQuantity(sample.frequencyHz, 'Hz', { digits: 2 })} />
            {device.type !== 'meter' && <Value label={t('device.metric.temperature')} value={formatQuantity(sample.tempC, '°C', { digits: 1 })} />}
            {device.type === 'inverter' && (
              <Value label={t('device.metric.irradiance')} value={formatQuantity(sample.irradianceWm2, 'W/m²', { digits: 0 })} />
            )}
            {device.type === 'inverter' && (
              <Value label={t('device.attr.stringsActive')} value={`${sample.stringsActive} / ${device.stringsEnabled || device.stringsTotal}`} />
            )}
          </dl>
        )}
      </DataState>
    </Panel>
  );
}

/** A local date (yyyy-MM-dd) as the date picker holds it (a Date at the browser's midnight of that date). */
function pickerDate(date: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y!, m! - 1, d!);
}

/** The date n days after a local date (yyyy-MM-dd). */
function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + n)).toISOString().slice(0, 10);
}

/** A bucket's label on the station's own clock. */
function pointLabel(resolution: string, time: number, zone: string): string {
  const local = formatDateTimeIn(time, zone);
  switch (resolution) {
    case 'day':
      return local.slice(0, 10);
    case 'month':
      return local.slice(0, 7);
    default:
      return local.slice(5, 16);
  }
}

/** A metric's history over a chosen range; the server picks the resolution from the range. */
function HistoryPanel({ device, zone: stationZone }: { device: DeviceDetail; zone?: string }) {
  const { t } = useTranslation();
  const zone = stationZone ?? browserTimeZone();
  const metrics = metricsFor(device.type);
  const [metric, setMetric] = useState<Metric>(metrics[0]!);
  const today = todayIn(zone);
  // the range is of the station's own days, from its midnight to its midnight
  const [chosen, setRange] = useState<[string, string]>();
  const range: [string, string] = chosen ?? [today, today];
  const from = toRfc3339(startOfDayIn(range[0], zone));
  const to = toRfc3339(startOfDayIn(addDays(range[1], 1), zone));
  const history = useHistory(device.id, metric, from, to);
  const data = history.data;
  const metricLabel = (name: Metric) =>
    name === 'energy' || name === 'energy2' ? t(`device.metric.${name}.${device.type}`) : t(`device.metric.${name}`);

  const spec = useCallback(
    (): ChartSpec => {
      const points = data?.points ?? [];
      const bars = data?.resolution === 'day' || data?.resolution === 'month';
      return {
        categories: points.map((point) => pointLabel(data?.resolution ?? '', point[0], zone)),
        edges: !bars,
        barMaxWidth: 16,
        format: (value) => formatNumber(value, 2),
        axes: [{ name: data?.unit, zero: metric === 'power' || metric === 'energy' }],
        series: [
          {
            name: metricLabel(metric),
            kind: bars ? 'bar' : 'line',
            smooth: !bars,
            area: !bars,
            unit: data?.unit,
            data: points.map((point) => point[1]),
          },
        ],
      };
    },
    // metricLabel only reads t and the device type
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data, metric, t, device.type, zone],
  );

  return (
    <Panel
      title={t('device.history')}
      extra={
        <>
          <LabelledSelect
            label={t('device.history.metric')}
            size="small"
            style={{ width: 180 }}
            value={metric}
            onChange={(next: Metric) => setMetric(next)}
          >
            {metrics.map((name) => (
              <Option key={name} value={name}>
                {metricLabel(name)}
              </Option>
            ))}
          </LabelledSelect>
          <RangePicker
            size="small"
            style={{ width: 260 }}
            allowClear={false}
            value={range}
            disabledDate={(current) => current.isAfter(new Date())}
            onChange={(value: string[]) => value?.length === 2 && setRange([value[0]!, value[1]!])}
            aria-label={t('device.history.range')}
            shortcuts={[
              { text: t('device.history.today'), value: () => [pickerDate(today), pickerDate(today)] as never },
              {
                text: t('device.history.week'),
                value: () => [pickerDate(addDays(today, -6)), pickerDate(today)] as never,
              },
              {
                text: t('device.history.month'),
                value: () => [pickerDate(addDays(today, -29)), pickerDate(today)] as never,
              },
            ]}
          />
        </>
      }
    >
      <div className={styles.chart}>
        <Chart
          spec={spec}
          label={`${t('device.history')}: ${metricLabel(metric)}`}
          loading={history.isPending}
          error={history.isError && !data}
          empty={(data?.points.length ?? 0) === 0}
          emptyText={t('device.history.empty')}
          onRetry={() => void history.refetch()}
        />
      </div>
      <p className={styles.muted}>{t('device.history.zone', { zone: `${zone} (${zoneName(new Date(), zone, currentLocale())})` })}</p>
    </Panel>
  );
}

function attributeValue(attribute: Attribute, t: (key: string) => string, zone?: string): string {
  if (attribute.key === 'time') {
    return zonedTime(String(attribute.value), zone, currentLocale()).text || NO_VALUE;
  }
  if (attribute.key === 'type') {
    return t(`device.type.${attribute.value}`);
  }
  if (attribute.key === 'state') {
    return t(`status.deviceState.${attribute.value}`);
  }
  if (attribute.key === 'meterPosition' && attribute.value) {
    return t(`device.meterPosition.${attribute.value}`);
  }
  if (typeof attribute.value === 'number') {
    return attribute.unit ? formatQuantity(attribute.value, attribute.unit) : formatNumber(attribute.value);
  }
  return attribute.value ? String(attribute.value) : NO_VALUE;
}

function Attributes({ id, zone }: { id: number; zone?: string }) {
  const { t } = useTranslation();
  const attributes = useAttributes(id);
  const list = attributes.data ?? [];
  return (
    <Panel title={t('device.attributes')}>
      <DataState loading={attributes.isPending} error={attributes.isError} empty={list.length === 0} onRetry={() => void attributes.refetch()} minHeight={160}>
        <PlainTable>
          <thead>
            <tr>
              <th scope="col">{t('device.attributes.name')}</th>
              <th scope="col">{t('device.attributes.value')}</th>
              <th scope="col">{t('device.attributes.group')}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((attribute) => (
              <tr key={`${attribute.group}:${attribute.key}`}>
                <th scope="row" style={{ background: 'none', fontWeight: 400, color: 'var(--color-text-2)' }}>
                  {t(`device.attr.${attribute.key}`, { defaultValue: attribute.key })}
                </th>
                <td>{attributeValue(attribute, t, zone)}</td>
                <td className={styles.muted}>{t(`device.attributes.${attribute.group}`)}</td>
              </tr>
            ))}
          </tbody>
        </PlainTable>
      </DataState>
    </Panel>
  );
}

/** One device: real-time values, history of a chosen metric and range, attributes. */
export function DeviceDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const detail = useDeviceDetail(id);
  const device = detail.data;
  const zones = useStationZones();
  return (
    <>
      <PageHeader
        title={
          <>
            <Button shape="circle" size="small" icon={<IconLeft />} aria-label={t('common.back')} onClick={() => navigate(-1)} />
            <span>{device?.name ?? t('device.detail')}</span>
            {device && <StatusTag category="deviceState" value={device.state} appearance="filled" />}
          </>
        }
        extra={
          device && (
            <Button type="primary" icon={<IconEdit />} onClick={() => navigate(`/device/edit/${device.id}`)}>
              {t('common.edit')}
            </Button>
          )
        }
      />
      <DataState loading={detail.isPending} error={detail.isError} onRetry={() => void detail.refetch()} minHeight={400}>
        {device && (
          <div className={styles.grid}>
            <p className={`${styles.span12} ${styles.muted}`} style={{ margin: 0 }}>
              {t(`device.type.${device.type}`)} · {t('device.field.sn')} {device.sn} · {t('device.field.station')}{' '}
              <button type="button" className={styles.link} onClick={() => navigate(`/station/detail/${device.stationId}`)}>
                {device.stationName}
              </button>
              {device.model && ` · ${device.model}`}
            </p>
            <div className={styles.span12}>
              <RealTime device={device} zone={zones.get(device.stationId)} />
            </div>
            <div className={styles.span8}>
              <HistoryPanel device={device} zone={zones.get(device.stationId)} />
            </div>
            <div className={styles.span4}>
              <Attributes id={device.id} zone={zones.get(device.stationId)} />
            </div>
          </div>
        )}
      </DataState>
    </>
  );
}
