import Button from '@arco-design/web-react/es/Button';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import Select from '@arco-design/web-react/es/Select';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Checkbox/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import { IconArrowDown, IconArrowUp, IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormList } from '@/components/form-list';
import { ApiError } from '@/lib/api-client';
import { fieldErrorsShown } from '@/lib/form-errors';
import { notifyError, notifySuccess } from '@/lib/notify';
import {
  type Item,
  itemProblems,
  KINDS,
  keyFor,
  MAX_ITEMS,
  MAX_LABEL,
  MAX_UNIT,
  type Template,
  templateInput,
  useAddTemplate,
  useEditTemplate,
} from './api';
import styles from './checklists.module.css';

interface Values {
  name: string;
}

/** Adds a checklist template, or edits one: its name and its items in order. */
export function TemplateDialog({ editing, onClose }: { editing: Template | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const add = useAddTemplate();
  const edit = useEditTemplate();
  const current = editing !== 'new' ? editing : null;
  const [items, setItems] = useState<Partial<Item>[]>([]);
  const [checked, setChecked] = useState(false);
  const [serverItems, setServerItems] = useState('');

  useEffect(() => {
    if (editing === null) return;
    setItems(current ? current.items.map((item) => ({ ...item })) : [{ key: '', label: '', kind: 'check', required: true }]);
    setChecked(false);
    setServerItems('');
  }, [editing, current]);

  const problems = itemProblems(items);
  const setItem = (i: number, patch: Partial<Item>) => setItems((list) => list.map((item, k) => (k === i ? { ...item, ...patch } : item)));
  const move = (i: number, by: number) =>
    setItems((list) => {
      const next = [...list];
      const [moved] = next.splice(i, 1);
      if (moved) next.splice(i + by, 0, moved);
      return next;
    });
  // a new item's key follows its label until the label is left; a saved item keeps its key
  // (answers on orders name it)
  const setLabel = (i: number, label: string) =>
    setItems((list) =>
      list.map((item, k) => {
        if (k !== i) return item;
        const saved = current?.items.some((old) => old.key === item.key && item.key !== '');
        const others = list.filter((_, n) => n !== i).map((other) => other.key ?? '');
        return { ...item, label, key: saved ? item.key : keyFor(label, others) };
      }),
    );

  const submit = async () => {
    setChecked(true);
    const v = await form.validate();
    if (items.length === 0 || Object.keys(itemProblems(items)).length > 0) {
      return;
    }
    const input = templateInput(v.name, items);
    try {
      if (current) {
        await edit.mutateAsync({ id: current.id, input });
      } else {
        await add.mutateAsync(input);
      }
      notifySuccess(t('checklist.saved'));
      onClose();
    } catch (err) {
      // the items' own problems (items, items.0.label …) are said under the items, the name's beside it
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
        setServerItems(
          Object.entries(err.fields)
            .filter(([f]) => f.startsWith('items'))
            .map(([, m]) => m)
            .join(' '),
        );
        fieldErrorsShown(form, err);
        return;
      }
      notifyError(t('checklist.failed', { reason: err instanceof Error ? err.message : String(err) }));
    }
  };

  return (
    <Modal
      title={current ? t('checklist.editTitle') : t('checklist.add')}
      visible={editing !== null}
      onOk={submit}
      onCancel={onClose}
      okText={t('checklist.save')}
      confirmLoading={add.isPending || edit.isPending}
      unmountOnExit
      style={{ width: 760, maxWidth: '100%' }}
    >
      <Form form={form} layout="vertical" initialValues={{ name: current?.name ?? '' }}>
        <Form.Item
          label={t('checklist.form.name')}
          field="name"
          rules={[{ required: true, message: t('checklist.form.nameRequired') }, { maxLength: 100, message: t('checklist.form.nameLong') }]}
        >
          <Input maxLength={100} aria-label={t('checklist.form.name')} />
        </Form.Item>
      </Form>
      <FormList legend={t('checklist.form.items')} hint={t('checklist.form.itemsHint')}>
        <div className={`${styles.itemRow} ${styles.rowHead}`} aria-hidden>
          <span>{t('checklist.form.label')}</span>
          <span>{t('checklist.form.kind')}</span>
          <span>{t('checklist.form.unit')}</span>
          <span />
          <span />
        </div>
        {items.map((item, i) => (
          <div key={i} className={styles.itemRow} data-testid="checklist-item">
            <Input
              value={item.label}
              maxLength={MAX_LABEL}
              aria-label={t('checklist.form.labelOf', { n: i + 1 })}
              placeholder={t('checklist.form.labelPlaceholder')}
              onChange={(value) => setLabel(i, value)}
            />
            <Select
              value={item.kind}
              aria-label={t('checklist.form.kindOf', { n: i + 1 })}
              options={KINDS.map((kind) => ({ value: kind, label: t(`checklist.kind.${kind}`) }))}
              onChange={(kind: string) => setItem(i, { kind })}
            />
            {item.kind === 'reading' ? (
              <Input
                value={item.unit}
                maxLength={MAX_UNIT}
                aria-label={t('checklist.form.unitOf', { n: i + 1 })}
                placeholder="kWh"
                onChange={(unit) => setItem(i, { unit })}
              />
            ) : (
              <span className={styles.muted}>–</span>
            )}
            <Checkbox checked={!!item.required} onChange={(required: boolean) => setItem(i, { required })}>
              {t('checklist.required')}
            </Checkbox>
            <span className={styles.rowActions}>
              <Button icon={<IconArrowUp />} aria-label={t('checklist.form.up', { n: i + 1 })} disabled={i === 0} onClick={() => move(i, -1)} />
              <Button
                icon={<IconArrowDown />}
                aria-label={t('checklist.form.down', { n: i + 1 })}
                disabled={i === items.length - 1}
                onClick={() => move(i, 1)}
              />
              <Button
                icon={<IconDelete />}
                aria-label={t('checklist.form.remove', { n: i + 1 })}
                disabled={items.length === 1}
                onClick={() => setItems((list) => list.filter((_, k) => k !== i))}
              />
            </span>
            {checked && problems[i] && (
              <span className={styles.error} role="alert">
                {t(problems[i])}
              </span>
            )}
          </div>
        ))}
        {serverItems && (
          <p className={styles.error} role="alert">
            {serverItems}
          </p>
        )}
        <Button
          icon={<IconPlus />}
          disabled={items.length >= MAX_ITEMS}
          onClick={() => setItems((list) => [...list, { key: '', label: '', kind: 'check', required: false }])}
        >
          {t('checklist.form.addItem')}
        </Button>
        {items.length >= MAX_ITEMS && <p className={styles.muted}>{t('checklist.form.maxItems', { count: MAX_ITEMS })}</p>}
      </FormList>
    </Modal>
  );
}
