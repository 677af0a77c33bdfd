import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import Modal from '@arco-design/web-react/es/Modal';
import '@arco-design/web-react/es/Modal/style/css.js';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Tag/style/css.js';
import { IconDelete, IconEdit, IconPlus } from '@arco-design/web-react/icon';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { PageHeader, Panel } from '@/components/panel';
import { Permission } from '@/components/permission';
import { PlainTable } from '@/components/plain-table';
import table from '@/components/plain-table.module.css';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { TAG_COLORS, type TagWithCount, useDeleteTag, useSaveTag, useTags } from './api/tags';
import styles from './station.module.css';

interface Editing {
  id?: number;
  name: string;
  color: string;
}

export const TAG_NAME_MAX = 30;

/** Why a tag name cannot be saved, as an i18n key, or null. */
export function tagNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') {
    return 'tags.name.required';
  }
  if ([...trimmed].length > TAG_NAME_MAX) {
    return 'tags.name.tooLong';
  }
  return null;
}

function TagDialog({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveTag();
  const [name, setName] = useState(editing.name);
  const [color, setColor] = useState(editing.color);
  const [error, setError] = useState<string>();
  const nameId = useId();
  const errorId = useId();

  const submit = async () => {
    const problem = tagNameProblem(name);
    if (problem) {
      setError(t(problem, { max: TAG_NAME_MAX }));
      return;
    }
    try {
      await save.mutateAsync({ id: editing.id, name: name.trim(), color });
      notifySuccess(t('tags.saved'));
      onClose();
    } catch (cause) {
      if (cause instanceof ApiError && cause.fields.name) {
        setError(cause.fields.name);
      }
    }
  };

  return (
    <Modal
      visible
      title={editing.id ? t('tags.edit') : t('tags.add')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={save.isPending}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      unmountOnExit
    >
      <label htmlFor={nameId} style={{ display: 'block', marginBottom: 6 }}>
        {t('tags.name')}
      </label>
      <Input
        id={nameId}
        value={name}
        onChange={(value) => {
          setName(value);
          setError(undefined);
        }}
        onPressEnter={() => void submit()}
        status={error ? 'error' : undefined}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? errorId : undefined}
        maxLength={TAG_NAME_MAX + 10}
      />
      {error && (
        <p id={errorId} role="alert" className={styles.hint} style={{ color: 'rgb(var(--danger-6))' }}>
          {error}
        </p>
      )}
      <p style={{ margin: '16px 0 6px' }}>{t('tags.color')}</p>
      <div className={styles.swatches} role="radiogroup" aria-label={t('tags.color')}>
        {TAG_COLORS.map((option) => (
          <button
            key={option}
            type="button"
            role="radio"
            aria-checked={color === option}
            aria-label={t(`tags.colors.${option}`)}
            title={t(`tags.colors.${option}`)}
            className={`${styles.swatch} ${color === option ? styles.swatchActive : ''}`}
            style={{ background: `rgb(var(--${option}-6))` }}
            onClick={() => setColor(option)}
          />
        ))}
      </div>
      <p style={{ margin: '16px 0 0' }}>
        <Tag color={color}>{name.trim() || t('tags.preview')}</Tag>
      </p>
    </Modal>
  );
}

/** Station tags: create, rename, recolour and delete; each opens the stations that carry it. */
export function StationTagsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tags = useTags();
  const remove = useDeleteTag();
  const [editing, setEditing] = useState<Editing | null>(null);
  const list = tags.data ?? [];

  const onDelete = async (tag: TagWithCount) => {
    await remove.mutateAsync(tag.id);
    notifySuccess(t('tags.deleted', { name: tag.name }));
  };

  return (
    <>
      <PageHeader
        title={t('menu.station.tags')}
        extra={
          <Permission roles={['admin']}>
            <Button type="primary" icon={<IconPlus />} onClick={() => setEditing({ name: '', color: 'arcoblue' })}>
              {t('tags.add')}
            </Button>
          </Permission>
        }
      />
      <Panel title={t('tags.list', { count: list.length })}>
        <DataState
          loading={tags.isPending}
          error={tags.isError}
          empty={list.length === 0}
          emptyText={t('tags.empty')}
          onRetry={() => void tags.refetch()}
          minHeight={200}
        >
          <PlainTable>
            <thead>
              <tr>
                <th scope="col">{t('tags.name')}</th>
                <th scope="col">{t('tags.color')}</th>
                <th scope="col" className={table.num}>
                  {t('tags.stations')}
                </th>
                <th scope="col">{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((tag) => (
                <tr key={tag.id}>
                  <td>
                    <Tag color={tag.color}>{tag.name}</Tag>
                  </td>
                  <td>{t(`tags.colors.${tag.color}`)}</td>
                  <td className={table.num}>
                    <Button type="text" size="mini" onClick={() => navigate(`/station?tagIds=${tag.id}`)}>
                      {t('tags.showStations', { count: tag.stations })}
                    </Button>
                  </td>
                  <td>
                    <Permission roles={['admin']}>
                      <Button
                        type="text"
                        size="mini"
                        icon={<IconEdit />}
                        aria-label={t('tags.editNamed', { name: tag.name })}
                        onClick={() => setEditing({ id: tag.id, name: tag.name, color: tag.color })}
                      >
                        {t('common.edit')}
                      </Button>
                      <Popconfirm
                        title={t('tags.deleteConfirm', { name: tag.name, count: tag.stations })}
                        onOk={() => onDelete(tag)}
                        okText={t('common.delete')}
                        cancelText={t('common.cancel')}
                      >
                        <Button type="text" size="mini" status="danger" icon={<IconDelete />} aria-label={t('tags.deleteNamed', { name: tag.name })}>
                          {t('common.delete')}
                        </Button>
                      </Popconfirm>
                    </Permission>
                  </td>
                </tr>
              ))}
            </tbody>
          </PlainTable>
        </DataState>
      </Panel>
      {editing && <TagDialog editing={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
