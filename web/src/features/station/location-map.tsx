import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import styles from './station.module.css';
import { WORLD_OUTLINE } from './world-outline';

// Equirectangular projection: one unit per degree. The view leaves out the polar caps.
const TOP = 84;
const BOTTOM = -60;
const x = (lng: number) => lng + 180;
const y = (lat: number) => 90 - lat;

const LAND = WORLD_OUTLINE.map((ring) => `M${ring.map(([lng, lat]) => `${x(lng)},${y(lat)}`).join('L')}Z`).join('');
const MERIDIANS = Array.from({ length: 11 }, (_, index) => -150 + index * 30);
const PARALLELS = [-30, 0, 30, 60];

/** Where a station lies, on a world outline drawn without map tiles, with its coordinates. */
export function LocationMap({ lat, lng, name }: { lat: number; lng: number; name: string }) {
  const { t } = useTranslation();
  const known = Number.isFinite(lat) && Number.isFinite(lng) && !(lat === 0 && lng === 0);
  const coordinates = `${formatNumber(Math.abs(lat), 4)}°${lat >= 0 ? 'N' : 'S'}, ${formatNumber(Math.abs(lng), 4)}°${lng >= 0 ? 'E' : 'W'}`;
  // The label goes left of the marker when it would run off the right edge (about 5 units a character).
  const labelLeft = x(lng) + 8 + name.length * 5 > 360;
  return (
    <figure style={{ margin: 0 }}>
      <svg
        className={styles.map}
        viewBox={`0 ${y(TOP)} 360 ${TOP - BOTTOM}`}
        role="img"
        aria-label={known ? t('station.map.label', { name, coordinates }) : t('station.map.unknown')}
      >
        <rect className={styles.mapOcean} x={0} y={y(TOP)} width={360} height={TOP - BOTTOM} />
        {MERIDIANS.map((lngLine) => (
          <line key={`m${lngLine}`} className={styles.mapGrid} x1={x(lngLine)} x2={x(lngLine)} y1={y(TOP)} y2={y(BOTTOM)} />
        ))}
        {PARALLELS.map((latLine) => (
          <line key={`p${latLine}`} className={styles.mapGrid} x1={0} x2={360} y1={y(latLine)} y2={y(latLine)} />
        ))}
        <path className={styles.mapLand} d={LAND} />
        {known && (
          <g data-testid="station-marker">
            <circle className={styles.mapPulse} cx={x(lng)} cy={y(lat)} r={6} />
            <circle className={styles.mapMarker} cx={x(lng)} cy={y(lat)} r={2.6} />
            <text
              className={styles.mapLabel}
              x={x(lng) + (labelLeft ? -8 : 8)}
              y={y(lat) + 3}
              textAnchor={labelLeft ? 'end' : 'start'}
            >
              {name}
            </text>
          </g>
        )}
      </svg>
      <figcaption className={styles.muted} style={{ marginTop: 8, fontSize: 13 }}>
        {known ? coordinates : t('station.map.unknown')}
      </figcaption>
    </figure>
  );
}
