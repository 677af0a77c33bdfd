import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { PageHeader, Panel } from '@/components/panel';
import { notifySuccess } from '@/lib/notify';
import { useQueryParams } from '@/lib/use-query-params';
import { type Device, useDeviceDetail, useSaveDevice } from './api/devices';
import { DeviceForm, type DeviceFormValues } from './device-form';

function formValues(device: Device): DeviceFormValues {
  return {
    parent: { stationId: device.stationId, parentId: device.parentId },
    name: device.name,
    sn: device.sn,
    type: device.type,
    customType: device.customType,
    model: device.model,
    ratedPowerKw: device.ratedPowerKw,
    capacityKwh: device.capacityKwh,
    componentRatedPowerW: device.componentRatedPowerW,
    componentCount: device.componentCount,
    stringsTotal: device.stringsTotal,
    stringsEnabled: device.stringsEnabled,
    meterPosition: device.meterPosition || undefined,
    collectorSn: device.collectorSn,
  };
}

/** Add a device (/device/add, optionally ?stationId=). */
export function DeviceAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useQueryParams();
  const stationId = Number(params.get('stationId') ?? 0) || 0;
  const save = useSaveDevice();
  return (
    <>
      <PageHeader title={t('device.add')} />
      <Panel title={t('device.form.title')}>
        <DeviceForm
          initialValues={stationId ? { parent: { stationId, parentId: 0 } } : {}}
          submitting={save.isPending}
          onCancel={() => navigate(-1)}
          onSubmit={async (input) => {
            const created = await save.mutateAsync({ input });
            notifySuccess(t('device.saved'));
            navigate(`/device?name=${encodeURIComponent(created.sn)}`);
          }}
        />
      </Panel>
    </>
  );
}

/** Edit a device (/device/edit/:id). */
export function DeviceEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const detail = useDeviceDetail(id);
  const save = useSaveDevice();
  const device = detail.data;
  return (
    <>
      <PageHeader title={device ? t('device.edit.title', { name: device.name }) : t('device.edit')} />
      <Panel title={t('device.form.title')}>
        <DataState loading={detail.isPending} error={detail.isError} onRetry={() => void detail.refetch()} minHeight={300}>
          {device && (
            <DeviceForm
              key={device.id}
              self={device.id}
              initialValues={formValues(device)}
              submitting={save.isPending}
              onCancel={() => navigate(-1)}
              onSubmit={async (input) => {
                await save.mutateAsync({ id, input });
                notifySuccess(t('device.saved'));
                navigate(`/device/detail/${id}`);
              }}
            />
          )}
        </DataState>
      </Panel>
    </>
  );
}
