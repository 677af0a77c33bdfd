import type { FormInstance } from '@arco-design/web-react/es/Form/interface';
import { ApiError } from './api-client';

/**
 * Puts the server's own words for each bad field (ApiError.fields) beside the form's fields and
 * returns the messages about fields the form does not show (to show above it).
 */
export function showFieldErrors<V>(form: FormInstance<V>, error: unknown, known: readonly (keyof V & string)[]): string[] {
  if (!(error instanceof ApiError)) {
    return [];
  }
  const fields: Record<string, { value?: unknown; error: { message: string } }> = {};
  const rest: string[] = [];
  for (const [name, message] of Object.entries(error.fields)) {
    if ((known as readonly string[]).includes(name)) {
      fields[name] = { value: form.getFieldValue(name as keyof V), error: { message } };
    } else {
      rest.push(message);
    }
  }
  if (Object.keys(fields).length > 0) {
    form.setFields(fields as Parameters<FormInstance<V>['setFields']>[0]);
  }
  return rest;
}

/**
 * Puts every bad field the server names (ApiError.fields) on the form — under rename(field)
 * when the form's box has another name — and says whether there was one (else the caller
 * shows the error as a whole).
 */
export function fieldErrorsShown<V>(form: FormInstance<V>, error: unknown, rename: (field: string) => string = (f) => f): boolean {
  if (!(error instanceof ApiError) || Object.keys(error.fields).length === 0) {
    return false;
  }
  const fields = Object.fromEntries(Object.entries(error.fields).map(([f, message]) => [rename(f), { error: { message } }]));
  form.setFields(fields as Parameters<FormInstance<V>['setFields']>[0]);
  return true;
}
