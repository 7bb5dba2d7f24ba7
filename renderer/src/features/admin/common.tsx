/** What the administration sections share: the people of the organization and error text. */
import type { User } from '../../../../shared/protocol';
import { useAccountStateShallow } from '../../stores/hooks';

/** Everyone in the organization (active first, then deactivated), sorted by name. */
export function useAllUsers(): User[] {
  return useAccountStateShallow((a) => {
    const byName = (x: User, y: User) => x.full_name.localeCompare(y.full_name) || x.user_id - y.user_id;
    return [
      ...(Object.values(a.users.active) as User[]).sort(byName),
      ...(Object.values(a.users.nonActive) as User[]).sort(byName),
    ];
  });
}

/** A failure as the person should read it: the server's own message when there is one. */
export const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'Something went wrong.';
