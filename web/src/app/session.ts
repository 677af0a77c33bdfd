import { useMessageStore } from '@/features/messages/message-store';
import { logout } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { useTabsStore } from './tabs-store';

/** Forgets what the signed-in user had open in this tab: messages, tabs and server state. */
export function resetClientState(): void {
  useMessageStore.getState().clear();
  useTabsStore.getState().reset();
  queryClient.removeQueries();
}

/** Signs out on the server and here. Resolves with the external logout page, or "". */
export async function signOut(): Promise<string> {
  const url = await logout();
  resetClientState();
  return url;
}
