import Button from '@arco-design/web-react/es/Button';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Select from '@arco-design/web-react/es/Select';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Checkbox/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import { IconLocation } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZonedTime } from '@/components/zoned-time';
import { formatNumber } from '@/lib/format';
import { notifyInfo, notifySuccess } from '@/lib/notify';
import {
  type ChecklistAnswer,
  checklistTemplatesQuery,
  type CheckInInput,
  useAnswerItem,
  useCheckIn,
  useTakeChecklist,
  type WorkOrderDetail,
} from './api/work-orders';
import styles from './operations.module.css';

/** The phone's position, when the user allows it; undefined after a refusal or 10 s. */
export function position(): Promise<GeolocationPosition | undefined> {
  if (typeof navigator === 'undefined' || !navigator.geolocation) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(resolve, () => resolve(undefined), { enableHighAccuracy: true, timeout: 10_000, maximumAge: 60_000 });
  });
}

/** What a queued or sent action says. */
function useDone() {
  const { t } = useTranslation();
  return (answer: unknown, done: string) => (answer === 'queued' ? notifyInfo(t('ops.queue.queued')) : notifySuccess(done));
}

/** Check in and out on site, with the phone's position when allowed, and the list of them. */
function CheckIns({ order }: { order: WorkOrderDetail }) {
  const { t } = useTranslation();
  const checkIn = useCheckIn(order);
  const done = useDone();
  const [locating, setLocating] = useState(false);
  const send = async (kind: 'in' | 'out') => {
    setLocating(true);
    const pos = await position();
    setLocating(false);
    const input: CheckInInput = { kind };
    if (pos) {
      input.lat = pos.coords.latitude;
      input.lng = pos.coords.longitude;
      input.accuracyM = Math.round(pos.coords.accuracy);
    }
    try {
      done(await checkIn.mutateAsync(input), t(`ops.site.checked.${kind}`));
    } catch {
      // the request layer already said why
    }
  };
  const last = order.checkIns[order.checkIns.length - 1];
  const inside = last?.kind === 'in';
  return (
    <>
      <h3 className={styles.subTitle}>{t('ops.site.checkIns')}</h3>
      {order.onSite && (
        <div className={styles.actions}>
          <Button type="primary" icon={<IconLocation />} loading={locating || checkIn.isPending} onClick={() => void send(inside ? 'out' : 'in')}>
            {inside ? t('ops.site.checkOut') : t('ops.site.checkIn')}
          </Button>
        </div>
      )}
      {order.checkIns.length === 0 ? (
        <p className={styles.muted}>{t('ops.site.noCheckIns')}</p>
      ) : (
        <ol className={styles.timeline} aria-label={t('ops.site.checkIns')}>
          {order.checkIns.map((c) => (
            <li key={c.id}>
              <div className={styles.meta}>
                <ZonedTime value={c.at} timeZone={order.timezone} />
                <span>{c.userName}</span>
                <strong>{t(`ops.site.kind.${c.kind}`)}</strong>
              </div>
              <p className={styles.body}>
                {c.distanceM !== null && c.distanceM !== undefined
                  ? t('ops.site.distance', { distance: formatNumber(c.distanceM, 0) })
                  : c.lat !== null && c.lat !== undefined
                    ? t('ops.site.positionKept')
                    : t('ops.site.noPosition')}
              </p>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** One checklist item: tick it, enter its reading, or choose its photo among the attachments. */
function Item({ order, item }: { order: WorkOrderDetail; item: NonNullable<WorkOrderDetail['checklist']>['items'][number] }) {
  const { t } = useTranslation();
  const answer = useAnswerItem(order);
  const done = useDone();
  const [value, setValue] = useState<number | undefined>(item.value ?? undefined);
  const send = async (input: ChecklistAnswer) => {
    try {
      done(await answer.mutateAsync(input), t('ops.site.answered'));
    } catch {
      // the request layer already said why
    }
  };
  const label = `${item.label}${item.required ? ' *' : ''}`;
  const photos = order.attachments.filter((a) => a.contentType.startsWith('image/'));
  return (
    <li className={styles.checkItem} data-testid="checklist-item">
      {item.kind === 'check' && (
        <Checkbox checked={item.done} disabled={!order.onSite} onChange={(checked) => void send({ key: item.key, done: checked })}>
          {label}
        </Checkbox>
      )}
      {item.kind === 'reading' && (
        <div className={styles.reading}>
          <span>{label}</span>
          <InputNumber
            aria-label={item.label}
            value={value}
            disabled={!order.onSite}
            onChange={(v) => setValue(v ?? undefined)}
            suffix={item.unit}
            className={styles.readingInput}
          />
          <Button size="small" disabled={!order.onSite || value === undefined} onClick={() => void send({ key: item.key, done: true, value })}>
            {t('ops.site.save')}
          </Button>
        </div>
      )}
      {item.kind === 'photo' && (
        <div className={styles.reading}>
          <span>{label}</span>
          <Select
            aria-label={item.label}
            placeholder={photos.length === 0 ? t('ops.site.photoFirst') : t('ops.site.choosePhoto')}
            value={item.attachmentId || undefined}
            disabled={!order.onSite || photos.length === 0}
            options={photos.map((p) => ({ value: p.id, label: p.name }))}
            onChange={(id: number) => void send({ key: item.key, done: true, attachmentId: id })}
            className={styles.readingInput}
          />
        </div>
      )}
      <span className={styles.muted}>
        {item.done ? t('ops.site.doneBy', { name: item.answeredBy }) : item.required ? t('ops.site.required') : t('ops.site.optional')}
      </span>
    </li>
  );
}

/** The order's checklist: take one from a template, then answer it item by item. */
function ChecklistSection({ order }: { order: WorkOrderDetail }) {
  const { t } = useTranslation();
  const templates = useQuery({ ...checklistTemplatesQuery, enabled: order.checklist === null });
  const take = useTakeChecklist(order);
  const done = useDone();
  const [chosen, setChosen] = useState<number | undefined>();
  const c = order.checklist;
  return (
    <>
      <h3 className={styles.subTitle}>{c ? t('ops.site.checklistOf', { name: c.name }) : t('ops.site.checklist')}</h3>
      {c ? (
        <>
          <p className={styles.muted} role="status" data-testid="checklist-missing">
            {c.missing > 0 ? t('ops.site.missing', { count: c.missing }) : t('ops.site.complete')}
          </p>
          <ul className={styles.checklist}>
            {c.items.map((item) => (
              <Item key={item.key} order={order} item={item} />
            ))}
          </ul>
        </>
      ) : order.onSite ? (
        <div className={styles.actions}>
          <Select
            aria-label={t('ops.site.template')}
            placeholder={t('ops.site.template')}
            value={chosen}
            onChange={(v: number) => setChosen(v)}
            options={(templates.data ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name }))}
            className={styles.readingInput}
          />
          <Button
            type="primary"
            disabled={chosen === undefined}
            loading={take.isPending}
            onClick={() =>
              chosen !== undefined &&
              take.mutateAsync({ templateId: chosen }).then(
                (answer) => done(answer, t('ops.site.taken')),
                () => undefined,
              )
            }
          >
            {t('ops.site.take')}
          </Button>
        </div>
      ) : (
        <p className={styles.muted}>{t('ops.site.noChecklist')}</p>
      )}
    </>
  );
}

/** On site: check-ins and the checklist (docs/workorders.md, "On site"). */
export function SitePanel({ order }: { order: WorkOrderDetail }) {
  return (
    <>
      <ChecklistSection order={order} />
      <CheckIns order={order} />
    </>
  );
}
