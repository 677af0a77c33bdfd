import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { PageHeader, Panel } from '@/components/panel';
import { notifySuccess } from '@/lib/notify';
import { useQueryParams } from '@/lib/use-query-params';
import { useSaveStation, useStationDetail } from './api/stations';
import { useTags } from './api/tags';
import type { Station } from './api/types';
import { StationForm, type StationFormValues } from './station-form';

/** The form's values for a stored station. */
export function formValues(station: Station): Partial<StationFormValues> {
  const { id: _id, tags, createTime: _c, updateTime: _u, ...rest } = station;
  return {
    ...rest,
    combineStatus: station.combineStatus === 1,
    gridStatus: station.gridStatus === 1,
    buildDate: station.buildDate || undefined,
    combineDate: station.combineDate || undefined,
    gridDate: station.gridDate || undefined,
    tagIds: tags.map((tag) => tag.id),
  };
}

/** The values a new sub-station starts from: its parent's place, calendar and money. */
function fromParent(parent: Station | undefined): Partial<StationFormValues> {
  if (!parent) {
    return { currency: 'CNY', combineStatus: false, gridStatus: false, tagIds: [] };
  }
  return {
    location: parent.location,
    country: parent.country,
    region: parent.region,
    address: parent.address,
    lat: parent.lat,
    lng: parent.lng,
    timezone: parent.timezone,
    stationType: parent.stationType,
    systemType: parent.systemType,
    currency: parent.currency,
    pricePerKwh: parent.pricePerKwh,
    subsidyPerKwh: parent.subsidyPerKwh,
    combineStatus: false,
    gridStatus: false,
    tagIds: [],
  };
}

/** Edit a station (/station/edit/:id). */
export function StationEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const detail = useStationDetail(id);
  const tags = useTags();
  const save = useSaveStation();
  const station = detail.data;
  return (
    <>
      <PageHeader title={station ? t('station.edit.title', { name: station.name }) : t('station.edit')} />
      <Panel title={t('station.form.title')}>
        <DataState loading={detail.isPending} error={detail.isError} onRetry={() => void detail.refetch()} minHeight={300}>
          {station && (
            <StationForm
              key={station.id}
              initialValues={formValues(station)}
              parentId={station.parentId}
              tags={tags.data ?? []}
              submitting={save.isPending}
              onCancel={() => navigate(-1)}
              onSubmit={async (input) => {
                await save.mutateAsync({ id, input });
                notifySuccess(t('station.saved'));
                navigate(`/station/detail/${id}`);
              }}
            />
          )}
        </DataState>
      </Panel>
    </>
  );
}

/** Add a station, or a sub-station with ?parentId= (/station/add, administrators). */
export function StationAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useQueryParams();
  const parentId = Number(params.get('parentId') ?? 0) || 0;
  const parent = useStationDetail(parentId, parentId > 0);
  const tags = useTags();
  const save = useSaveStation();
  const waiting = parentId > 0 && parent.isPending;
  return (
    <>
      <PageHeader
        title={parentId > 0 && parent.data ? t('station.children.addTo', { name: parent.data.name }) : t('station.add')}
      />
      <Panel title={t('station.form.title')}>
        <DataState loading={waiting} error={parentId > 0 && parent.isError} onRetry={() => void parent.refetch()} minHeight={300}>
          {!waiting && (
            <StationForm
              initialValues={fromParent(parent.data)}
              parentId={parentId}
              tags={tags.data ?? []}
              submitting={save.isPending}
              onCancel={() => navigate(-1)}
              onSubmit={async (input) => {
                const created = await save.mutateAsync({ input });
                notifySuccess(t('station.saved'));
                navigate(`/station/detail/${created.id}`);
              }}
            />
          )}
        </DataState>
      </Panel>
    </>
  );
}
