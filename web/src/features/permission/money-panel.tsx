import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { showFieldErrors } from '@/lib/form-errors';
import { notifySuccess } from '@/lib/notify';
import { ORG_KEY, useOrgWrite } from './api/org';
import styles from './permission.module.css';

/** GET and POST /v2/org/money: the base currency and the dated rates (docs/kpi.md, "Money in one currency"). */
export type MoneyBook = Schemas['Book'];

const CURRENCY = /^[A-Za-z]{3}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The organisation's base currency, in which every fleet total is shown, and the rates it converts at. */
export function MoneyPanel() {
  const { t } = useTranslation();
  const book = useQuery({ queryKey: [ORG_KEY, 'money'], queryFn: ({ signal }) => typedApi.get('/v2/org/money', undefined, { signal }) });
  const [form] = Form.useForm<MoneyBook>();
  const save = useOrgWrite((input: Schemas['BookInput']) => typedApi.post('/v2/org/money', { body: input }));
  const submit = async () => {
    let values: MoneyBook;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    const rates = (values.rates ?? []).map((rate) => ({ ...rate, currency: rate.currency.trim().toUpperCase(), month: rate.month.trim() }));
    try {
      const saved = await save.mutateAsync({ base: values.base.trim().toUpperCase(), rates });
      form.setFieldsValue(saved);
      notifySuccess(t('org.money.saved'));
    } catch (error) {
      const fields = ['base', ...rates.flatMap((_, index) => ['currency', 'month', 'rate'].map((name) => `rates[${index}].${name}`))];
      showFieldErrors(form, error, fields as never[]);
    }
  };
  const required = { required: true, message: t('org.rule.required') };
  return (
    <DataState loading={book.isPending} error={book.isError} onRetry={() => void book.refetch()} minHeight={160}>
      {book.data && (
        <Form
          form={form}
          layout="vertical"
          initialValues={book.data}
          onSubmit={() => void submit()}
          className={styles.money}
          aria-label={t('org.money.title')}
          autoComplete="off"
        >
          <h3 className={styles.moneyTitle}>{t('org.money.title')}</h3>
          <p className={styles.moneyHint}>{t('org.money.hint')}</p>
          <Form.Item
            field="base"
            label={t('org.money.base')}
            rules={[required, { match: CURRENCY, message: t('org.money.badCurrency') }]}
            extra={t('org.money.baseHint')}
          >
            <Input aria-label={t('org.money.base')} maxLength={3} style={{ width: 120 }} />
          </Form.Item>
          <Form.List field="rates">
            {(fields, { add, remove }) => (
              <div role="table" aria-label={t('org.money.rates')}>
                <div role="row" className={styles.rateRow}>
                  <span role="columnheader">{t('org.money.currency')}</span>
                  <span role="columnheader">{t('org.money.from')}</span>
                  <span role="columnheader">{t('org.money.rate')}</span>
                  <span />
                </div>
                {fields.length === 0 && <p className={styles.moneyHint}>{t('org.money.none')}</p>}
                {fields.map((item, index) => (
                  <div role="row" key={item.key} className={styles.rateRow}>
                    <Form.Item field={`${item.field}.currency`} rules={[required, { match: CURRENCY, message: t('org.money.badCurrency') }]} noStyle={false}>
                      <Input aria-label={`${t('org.money.currency')} ${index + 1}`} maxLength={3} placeholder="USD" />
                    </Form.Item>
                    <Form.Item field={`${item.field}.month`} rules={[required, { match: MONTH, message: t('org.money.badMonth') }]}>
                      <Input aria-label={`${t('org.money.from')} ${index + 1}`} maxLength={7} placeholder="2026-01" />
                    </Form.Item>
                    <Form.Item field={`${item.field}.rate`} rules={[required, { type: 'number', min: 0.000001, message: t('org.money.badRate') }]}>
                      <InputNumber aria-label={`${t('org.money.rate')} ${index + 1}`} min={0} precision={6} />
                    </Form.Item>
                    <Button type="text" status="danger" onClick={() => remove(index)} aria-label={`${t('org.money.remove')} ${index + 1}`}>
                      {t('org.money.remove')}
                    </Button>
                  </div>
                ))}
                <Button type="dashed" onClick={() => add({ currency: '', month: new Date().toISOString().slice(0, 7), rate: undefined })}>
                  {t('org.money.add')}
                </Button>
              </div>
            )}
          </Form.List>
          <div className={styles.moneySave}>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('org.money.save')}
            </Button>
          </div>
        </Form>
      )}
    </DataState>
  );
}
