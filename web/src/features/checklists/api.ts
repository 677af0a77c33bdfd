import { queryOptions, useMutation } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

/** Types generated from the API description (src/api/schema.d.ts). */
export type Template = components['schemas']['ChecklistTemplate'];
export type TemplateInput = components['schemas']['ChecklistTemplateInput'];
export type Item = components['schemas']['ChecklistItem'];

/** What an item asks for (internal/workorder/checklist.go). */
export const KINDS = ['check', 'photo', 'reading'] as const;
export type Kind = (typeof KINDS)[number];
/** The server's bounds. */
export const MAX_ITEMS = 50;
export const MAX_LABEL = 200;
export const MAX_UNIT = 20;
const KEY = /^[A-Za-z0-9_-]{1,40}$/;

export const templatesQuery = queryOptions({
  queryKey: ['checklist', 'templates'],
  queryFn: ({ signal }) => typedApi.get('/v2/checklist/template/list', undefined, { signal }),
});

/** Every list of templates the console keeps (the order's picker reads them too). */
const refresh = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ['checklist'] }),
    queryClient.invalidateQueries({ queryKey: ['workorder', 'templates'] }),
  ]);

export function useAddTemplate() {
  return useMutation({
    mutationFn: (input: TemplateInput) => typedApi.post('/v2/checklist/template/add', { body: input }),
    onSuccess: refresh,
  });
}

export function useEditTemplate() {
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: TemplateInput }) =>
      typedApi.post('/v2/checklist/template/edit/{id}', { path: { id }, body: input }),
    onSuccess: refresh,
  });
}

export function useDeleteTemplate() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/checklist/template/delete/{id}', { path: { id } }),
    onSuccess: refresh,
  });
}

/** A key for a new item from its label ("Inverter display" → "inverter-display"), unique in the list. */
export function keyFor(label: string, taken: readonly string[]): string {
  const base =
    label
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 32) || 'item';
  let key = base;
  for (let n = 2; taken.includes(key); n++) {
    key = `${base}-${n}`;
  }
  return key;
}

/** Checks the items as the server will: 1-50, each with a key unique in the list, a label and a kind. */
export function itemProblems(items: Partial<Item>[]): Record<number, string> {
  const out: Record<number, string> = {};
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const key = item.key?.trim() ?? '';
    const label = item.label?.trim() ?? '';
    if (label === '') {
      out[i] = 'checklist.form.labelRequired';
    } else if (label.length > MAX_LABEL) {
      out[i] = 'checklist.form.labelLong';
    } else if (!KINDS.includes(item.kind as Kind)) {
      out[i] = 'checklist.form.kindRequired';
    } else if (!KEY.test(key)) {
      out[i] = 'checklist.form.keyFormat';
    } else if (seen.has(key)) {
      out[i] = 'checklist.form.keyTaken';
    } else if ((item.unit ?? '').length > MAX_UNIT) {
      out[i] = 'checklist.form.unitLong';
    }
    seen.add(key);
  });
  return out;
}

/** The input the server takes: trimmed, a unit only on readings. */
export function templateInput(name: string, items: Partial<Item>[]): TemplateInput {
  return {
    name: name.trim(),
    items: items.map((item) => ({
      key: item.key?.trim() ?? '',
      label: item.label?.trim() ?? '',
      kind: item.kind ?? 'check',
      required: !!item.required,
      ...(item.kind === 'reading' && item.unit?.trim() ? { unit: item.unit.trim() } : {}),
    })),
  };
}
