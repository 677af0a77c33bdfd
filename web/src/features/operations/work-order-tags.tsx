import { StatusTag } from '@/components/status-tag';

/** The status tag (SPEC.md section 4 colours). */
export function WorkOrderStatusTag({ status }: { status: number }) {
  return <StatusTag category="workOrderStatus" value={status} appearance="filled" />;
}

/** The priority tag. */
export function PriorityTag({ priority }: { priority: number }) {
  return <StatusTag category="workOrderPriority" value={priority} dot />;
}

/**
 * The timeout tag. The server's timeoutStatus is 1 when timed out; the shared tag colours
 * workOrderTimeout 1 green ("on time") and 0 red ("timed out"), so the value is flipped here.
 */
export function TimeoutTag({ timeout }: { timeout: number }) {
  return <StatusTag category="workOrderTimeout" value={timeout === 1 ? 0 : 1} />;
}
