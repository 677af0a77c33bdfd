import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import { LabelledSelect, Option } from '@/components/select';
import { ZonedTime } from '@/components/zoned-time';
import { formatQuantity } from '@/lib/format';
import { stationTree, useStationOptions } from '@/lib/stations';
import { useWeather } from './api/weather';
import styles from './monitor.module.css';

/** Air-quality levels 1–6 (excellent … severe) as Arco palette names. */
const AIR_QUALITY_COLORS = ['green', 'lime', 'gold', 'orange', 'red', 'magenta'];

/** A station's weather now: condition, temperature, air quality; a picker chooses the station. */
export function WeatherPanel() {
  const { t } = useTranslation();
  const stations = useStationOptions();
  const [chosen, setChosen] = useState<number>();
  const options = stations.data ?? [];
  const stationId = chosen ?? stationTree(options)[0]?.id;
  const weather = useWeather(stationId);
  const data = weather.data;
  const aqColor = AIR_QUALITY_COLORS[(data?.airQuality ?? 1) - 1] ?? 'gray';

  return (
    <Panel
      title={t('monitor.weather.title')}
      className={styles.widget}
      extra={
        <LabelledSelect
          size="small"
          style={{ width: 220 }}
          showSearch
          value={stationId}
          onChange={(value: number) => setChosen(value)}
          label={t('monitor.weather.station')}
          placeholder={t('monitor.weather.station')}
          loading={stations.isPending}
          filterOption={(input, option) =>
            String((option as { props?: { children?: unknown } }).props?.children ?? '')
              .toLowerCase()
              .includes(input.toLowerCase())
          }
        >
          {options.map((station) => (
            <Option key={station.id} value={station.id}>
              {station.name}
            </Option>
          ))}
        </LabelledSelect>
      }
    >
      <DataState
        loading={stations.isPending || (stationId !== undefined && weather.isPending)}
        error={stations.isError || weather.isError}
        empty={stationId === undefined || data?.available === false}
        emptyText={stationId === undefined ? t('monitor.weather.noStation') : t('monitor.weather.noSource')}
        onRetry={() => void (stations.isError ? stations.refetch() : weather.refetch())}
        minHeight={200}
      >
        {data && (
          <div className={styles.weather}>
            <div className={styles.weatherMain}>
              <span className={styles.temperature}>{formatQuantity(data.temperatureC, '°C', { digits: 1 })}</span>
              {/* the condition by its name; its number (SPEC.md's weather code) only on hover */}
              <span className={styles.condition} title={data.code ? `${t('monitor.weather.code')} ${data.code}` : undefined}>
                {data.key ? t(`weather.${data.key}`, { defaultValue: t('weather.unknown') }) : t('weather.unknown')}
              </span>
            </div>
            <dl className={styles.figures}>
              <div>
                <dt>{t('monitor.weather.airQuality')}</dt>
                <dd>
                  <span style={{ color: `rgb(var(--${aqColor}-6))` }}>
                    {data.airQuality} · {t(`airQuality.${data.airQualityKey ?? 'unknown'}`)}
                  </span>
                </dd>
              </div>
              <div>
                <dt>{t('monitor.weather.irradiance')}</dt>
                <dd>{formatQuantity(data.irradianceWm2, 'W/m²', { digits: 0 })}</dd>
              </div>
              <div>
                <dt>{t('monitor.weather.wind')}</dt>
                <dd>{formatQuantity(data.windMs, 'm/s', { digits: 1 })}</dd>
              </div>
              <div>
                <dt>{t('monitor.weather.sun')}</dt>
                <dd>{formatQuantity(data.sunElevationDeg, '°', { digits: 1 })}</dd>
              </div>
            </dl>
            <p className={styles.caption}>
              {t('monitor.weather.updated')} <ZonedTime value={data.time} timeZone={options.find((option) => option.id === stationId)?.timezone} />
            </p>
          </div>
        )}
      </DataState>
    </Panel>
  );
}
