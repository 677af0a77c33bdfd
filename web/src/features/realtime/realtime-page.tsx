import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import Spin from '@arco-design/web-react/es/Spin';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Spin/style/css.js';
import { IconFullscreen, IconFullscreenExit } from '@arco-design/web-react/icon';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { PageHeader } from '@/components/panel';
import { LabelledSelect } from '@/components/select';
import { formatTime } from '@/lib/format';
import { usePush, usePushStatus } from '@/lib/push';
import { queryClient } from '@/lib/query-client';
import { useWall, WALL_KEY, type WallStation } from './api';
import styles from './realtime.module.css';
import { realtimeTexts } from './texts';
import { StationTile } from './tile';
import { type Filter, type SortKey, wallView } from './wall-view';

/**
 * The real-time monitor: the fleet as a wall of tiles, read again whenever the push says samples
 * were committed (no polling). Sortable and filterable; full screen turns the wall dark for a
 * control-room display.
 */
export function RealtimePage() {
  const { t } = useTranslation();
  const ready = realtimeTexts.useReady();
  const wall = useWall();
  const status = usePushStatus();
  const [updated, setUpdated] = useState<Date | null>(null);
  const [sort, setSort] = useState<SortKey>('name');
  const [filter, setFilter] = useState<Filter>({ text: '', state: 'all' });
  const box = useRef<HTMLDivElement>(null);
  const [full, setFull] = useState(false);

  usePush((event) => {
    if (event.type === 'live') {
      void queryClient.invalidateQueries({ queryKey: WALL_KEY });
    }
  });
  useEffect(() => {
    if (wall.dataUpdatedAt) {
      setUpdated(new Date(wall.dataUpdatedAt));
    }
  }, [wall.dataUpdatedAt]);
  useFullScreenTheme(full);
  useEffect(() => {
    const onChange = () => setFull(document.fullscreenElement === box.current && box.current !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const stations = useMemo(() => wallView(wall.data?.list ?? [], sort, filter), [wall.data, sort, filter]);
  const toggleFull = () => {
    if (document.fullscreenElement) {
      void document.exitFullscreen();
    } else {
      void box.current?.requestFullscreen?.().catch(() => setFull((value) => !value));
    }
  };

  if (!ready) {
    return <Spin />;
  }
  return (
    <>
      <PageHeader title={t('menu.realtimeMonitor')} />
      <div ref={box} className={`${styles.wall} ${full ? styles.full : ''}`} data-fullscreen={full || undefined}>
        <div className={styles.bar}>
          <Input
            allowClear
            className={styles.search}
            placeholder={t('realtime.search')}
            aria-label={t('realtime.search')}
            value={filter.text}
            onChange={(text) => setFilter({ ...filter, text })}
          />
          <LabelledSelect
            label={t('realtime.show')}
            className={styles.select}
            value={filter.state}
            onChange={(state: Filter['state']) => setFilter({ ...filter, state })}
            options={(['all', 'alarm', 'offline', 'producing'] as const).map((value) => ({ label: t(`realtime.show.${value}`), value }))}
          />
          <LabelledSelect
            label={t('realtime.sort')}
            className={styles.select}
            value={sort}
            onChange={(value: SortKey) => setSort(value)}
            options={(['name', 'power', 'normalization', 'alarm', 'communication'] as const).map((value) => ({
              label: t(`realtime.sort.${value}`),
              value,
            }))}
          />
          <span className={styles.live} data-status={status} role="status">
            <span className={styles.liveDot} aria-hidden />
            {t(`realtime.live.${status === 'open' ? 'open' : 'waiting'}`)}
            {updated && <span className={styles.updated}> · {t('realtime.updated', { time: formatTime(updated) })}</span>}
          </span>
          <Button
            icon={full ? <IconFullscreenExit /> : <IconFullscreen />}
            onClick={toggleFull}
            aria-pressed={full}
          >
            {t(full ? 'realtime.exitFullScreen' : 'realtime.fullScreen')}
          </Button>
        </div>
        <DataState
          loading={wall.isPending}
          error={wall.isError && !wall.data}
          empty={stations.length === 0}
          emptyText={t('realtime.empty')}
          onRetry={() => void wall.refetch()}
          minHeight={240}
        >
          <ul className={styles.tiles} aria-label={t('menu.realtimeMonitor')}>
            {stations.map((station: WallStation) => (
              <StationTile key={station.id} station={station} />
            ))}
          </ul>
        </DataState>
      </div>
    </>
  );
}

/** Full screen is dark whatever the console's theme; leaving it puts the theme back. */
function useFullScreenTheme(full: boolean) {
  useEffect(() => {
    if (!full) {
      return;
    }
    const before = document.body.getAttribute('arco-theme');
    document.body.setAttribute('arco-theme', 'dark');
    return () => {
      if (before) {
        document.body.setAttribute('arco-theme', before);
      } else {
        document.body.removeAttribute('arco-theme');
      }
    };
  }, [full]);
}
