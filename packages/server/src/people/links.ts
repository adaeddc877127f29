import { createHash, randomBytes } from 'node:crypto';
import { PASSWORD_PAGE_PATH } from '@ninefold/model';
import type { Store, StoredUser, UserLink } from '../store/store';
import type { Mailer } from './mailer';

/** How long a link holds: a week to accept an invitation, an hour to reset a password. */
export const LINK_SECONDS: Record<UserLink['purpose'], number> = { invitation: 7 * 24 * 3600, reset: 3600 };

/** Where links point and how they travel: the client's address as people reach it, and the mailer. */
export interface LinkSettings {
  /**
   * `https://admin.example.com`: never read from a request's Host, which its sender chooses. A function,
   * since a server on port 0 learns its own address only once it listens.
   */
  publicUrl: () => string;
  mailer: Mailer;
  now: () => Date;
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Keeps a new one-use link for a person and sends it. The token rides in the address's fragment (`#`),
 * which browsers never send to a server, so no proxy or request log sees it; only its hash is stored.
 */
export async function sendLink(
  store: Store,
  settings: LinkSettings,
  user: Pick<StoredUser, 'id' | 'email'>,
  purpose: UserLink['purpose'],
  product: string,
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(settings.now().getTime() + LINK_SECONDS[purpose] * 1000).toISOString();
  await store.addUserLink({ tokenHash: tokenHash(token), userId: user.id, purpose, expiresAt });
  const link = `${settings.publicUrl().replace(/\/+$/, '')}${PASSWORD_PAGE_PATH}#${new URLSearchParams({ token, purpose })}`;
  await settings.mailer.send(
    purpose === 'invitation'
      ? {
          to: user.email,
          subject: `You are invited to ${product}`,
          lines: [
            `You are invited to ${product}. Open this link to choose your password.`,
            'It works once, within 7 days.',
          ],
          link,
        }
      : {
          to: user.email,
          subject: `Reset your password for ${product}`,
          lines: [
            `Somebody asked to reset your password for ${product}. Open this link to choose a new one.`,
            'It works once, within an hour. If it was not you, ignore this email: nothing changes.',
          ],
          link,
        },
  );
}
