import { isSecretMember, type JsonValue, type UserRecord } from '@ninefold/model';
import type { SessionUser } from './SessionContext';

export {
  principalOfUser,
  readSessionAnswer,
  readTokenAnswer,
  retryAfterSeconds,
  type TokenAnswer,
  type UserRecord,
} from '@ninefold/model';

/** The person as the shell shows them, from what an answer said. */
export function sessionUserOf(record: UserRecord): SessionUser {
  const attributes: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(record)) {
    if (!isSecretMember(name) && name !== 'id' && name !== 'email' && name !== 'role') {
      attributes[name] = value;
    }
  }
  const id = record.id;
  const user: SessionUser = { attributes };
  if (typeof id === 'string' || typeof id === 'number') user.id = String(id);
  if (typeof record.email === 'string') user.email = record.email;
  if (typeof record.role === 'string' && record.role !== '') user.role = record.role;
  return user;
}
