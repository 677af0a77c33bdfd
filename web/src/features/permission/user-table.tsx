import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { IconPlus } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FitColumn } from '@/components/list/fit-columns';
import { ListTable } from '@/components/list/list-table';
import { LabelledSelect, Option } from '@/components/select';
import { useUser } from '@/lib/auth';
import { notifySuccess } from '@/lib/notify';
import { type OrgUser, orgCalls, ROLES, type Role, type UserFilters, useOrgWrite, useUsers } from './api/org';
import styles from './permission.module.css';
import { ResetPasswordDialog, UserForm } from './user-form';

type Dialog = { kind: 'add' } | { kind: 'edit'; user: OrgUser } | { kind: 'reset'; user: OrgUser };

/** The organisation's users (of the chosen department), filtered and paged, with every user call. */
export function UserTable({ deptId }: { deptId?: number }) {
  const { t } = useTranslation();
  const me = useUser().data;
  const [filters, setFilters] = useState<Omit<UserFilters, 'deptId'>>({ page: 1, pageSize: 10 });
  const [keyword, setKeyword] = useState('');
  const list = useUsers({ ...filters, deptId });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const disable = useOrgWrite(orgCalls.disable);
  const enable = useOrgWrite(orgCalls.enable);
  const remove = useOrgWrite(orgCalls.deleteUser);

  const confirm = (user: OrgUser, action: 'disable' | 'delete') =>
    Modal.confirm({
      title: t(`org.user.${action}Title`, { name: user.username }),
      content: t(`org.user.${action}Text`),
      okText: t(`org.user.${action}`),
      cancelText: t('org.cancel'),
      okButtonProps: { status: 'danger' },
      onOk: async () => {
        await (action === 'disable' ? disable : remove).mutateAsync(user.uid);
        notifySuccess(t(`org.user.${action}Done`, { name: user.username }));
      },
    });

  const columns: FitColumn<OrgUser>[] = [
    { title: t('org.user.username'), dataIndex: 'username', phone: 'primary', width: 130, fixed: 'left', ellipsis: true, tooltip: true },
    { title: t('org.user.name'), dataIndex: 'name', phone: 'primary', width: 120, optional: 6, ellipsis: true, tooltip: true },
    { title: t('org.user.dept'), dataIndex: 'deptName', width: 150, optional: 4, ellipsis: true, tooltip: true },
    {
      title: t('org.user.role'),
      dataIndex: 'role',
      phone: 'primary',
      width: 110, optional: 5,
      render: (role: string) => <Tag color={role === 'admin' ? 'arcoblue' : 'gray'}>{t(`org.role.${role}`)}</Tag>,
    },
    {
      title: t('org.user.authority'),
      dataIndex: 'stationAuthority',
      width: 170, optional: 3,
      render: (a: string) => t(`org.authority.${a}`),
    },
    { title: t('org.user.email'), dataIndex: 'email', width: 200, optional: 2, ellipsis: true, tooltip: true },
    { title: t('org.user.phone'), dataIndex: 'phone', width: 140, optional: 1 },
    {
      title: t('org.user.status'),
      dataIndex: 'status',
      phone: 'primary',
      width: 90,
      render: (status: number) => (
        <Tag color={status === 1 ? 'green' : 'red'}>{t(`org.status.${status === 1 ? 'active' : 'disabled'}`)}</Tag>
      ),
    },
    {
      title: t('org.actions'),
      dataIndex: 'uid',
      width: 290,
      fixed: 'right',
      render: (_: number, user) => {
        const self = me && Number(me.uid) === user.uid;
        const of = { name: user.username };
        return (
          <span className={styles.actions}>
            <Button size="mini" type="text" aria-label={t('org.user.editOf', of)} onClick={() => setDialog({ kind: 'edit', user })}>
              {t('org.edit')}
            </Button>
            <Button size="mini" type="text" aria-label={`${t('org.user.reset')} ${user.username}`} onClick={() => setDialog({ kind: 'reset', user })}>
              {t('org.user.reset')}
            </Button>
            {user.status === 1 ? (
              <Button size="mini" type="text" status="warning" disabled={self} aria-label={t('org.user.disableOf', of)} onClick={() => confirm(user, 'disable')}>
                {t('org.user.disable')}
              </Button>
            ) : (
              <Button
                size="mini"
                type="text"
                aria-label={t('org.user.enableOf', of)}
                onClick={() =>
                  void enable.mutateAsync(user.uid).then(() => notifySuccess(t('org.user.enableDone', of)), () => undefined)
                }
              >
                {t('org.user.enable')}
              </Button>
            )}
            <Button size="mini" type="text" status="danger" disabled={self} aria-label={t('org.user.deleteOf', of)} onClick={() => confirm(user, 'delete')}>
              {t('org.delete')}
            </Button>
          </span>
        );
      },
    },
  ];

  const tableName = t('org.user.title');
  return (
    <section className={styles.userPanel} aria-label={tableName}>
      <div className={styles.filters} role="search" aria-label={t('org.user.filters')}>
        <Input.Search
          aria-label={t('org.user.keyword')}
          placeholder={t('org.user.keyword')}
          className={styles.keyword}
          value={keyword}
          onChange={setKeyword}
          onSearch={(value) => setFilters((f) => ({ ...f, keyword: value.trim() || undefined, page: 1 }))}
          allowClear
          onClear={() => setFilters((f) => ({ ...f, keyword: undefined, page: 1 }))}
        />
        <LabelledSelect
          label={t('org.user.role')}
          className={styles.select}
          value={filters.role ?? 'all'}
          onChange={(v: string) => setFilters((f) => ({ ...f, role: v === 'all' ? undefined : (v as Role), page: 1 }))}
        >
          <Option value="all">{t('org.allRoles')}</Option>
          {ROLES.map((role) => (
            <Option key={role} value={role}>
              {t(`org.role.${role}`)}
            </Option>
          ))}
        </LabelledSelect>
        <LabelledSelect
          label={t('org.user.status')}
          className={styles.select}
          value={filters.status ?? 'all'}
          onChange={(v: string | number) =>
            setFilters((f) => ({ ...f, status: v === 'all' ? undefined : (Number(v) as 0 | 1), page: 1 }))
          }
        >
          <Option value="all">{t('org.allStatuses')}</Option>
          <Option value={1}>{t('org.status.active')}</Option>
          <Option value={0}>{t('org.status.disabled')}</Option>
        </LabelledSelect>
        <span className={styles.spacer} />
        <Button type="primary" icon={<IconPlus />} onClick={() => setDialog({ kind: 'add' })}>
          {t('org.user.add')}
        </Button>
      </div>
      <ListTable
        label={tableName}
        query={list}
        columns={columns}
        page={filters.page}
        pageSize={filters.pageSize}
        onPage={(page, pageSize) => setFilters((f) => ({ ...f, page, pageSize }))}
        emptyText={t('org.user.empty')}
        sizeOptions={[10, 20, 50]}
        rowKey="uid"
      />
      {dialog?.kind === 'add' && <UserForm deptId={deptId} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'edit' && <UserForm user={dialog.user} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'reset' && <ResetPasswordDialog user={dialog.user} onClose={() => setDialog(null)} />}
    </section>
  );
}
