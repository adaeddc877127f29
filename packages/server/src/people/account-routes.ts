import {
  type Account,
  type JsonValue,
  type Model,
  PERSON_AUDIT_ENTITY,
  planAccountChange,
  planInvitation,
  planManaging,
} from '@ninefold/model';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../access';
import { callOf, writerOf } from '../audit/audited-store';
import { applied, clip, ProblemError, problem } from '../problem';
import type { NewAuditEntry, Store, StoredUser } from '../store/store';
import { type LinkSettings, sendLink } from './links';

/** A team's people, not a crowd: one page holds them all. */
const MAX_PEOPLE = 10_000;

export interface AccountsOptions {
  model: Model;
  store: Store;
  links: LinkSettings;
  /** Whether changes of people are written to the audit trail (as writes of records are). */
  audit: boolean;
}

/**
 * `{path}` for a role of point 6 that manages people: `GET` lists them, `POST` invites one by email,
 * `PATCH {path}/{id}` changes a role, attributes or whether they are active, `POST {path}/{id}/sign-out`
 * ends their sessions, and `POST {path}/{id}/invitation` sends a new invitation. Every call is checked by
 * the core's `planManaging`, and every change is an entry of the audit trail, in its own transaction.
 */
export function registerAccounts(app: FastifyInstance, path: string, options: AccountsOptions): void {
  const { model, store } = options;
  const product = model.title ?? 'Ninefold';
  const managing = (request: FastifyRequest) => applied(planManaging(model, principalOf(request)));

  app.get(path, async (request) => {
    managing(request);
    const users = await store.listUsers(MAX_PEOPLE);
    return { items: users.map(accountOf) };
  });

  app.post(path, async (request, reply) => {
    const { invitation } = applied(planInvitation(model, principalOf(request), request.body));
    const made = await store.transaction(async (tx) => {
      const created = await tx.createUser({ ...invitation });
      if (created === 'exists') {
        throw new ProblemError(
          problem(409, 'ALREADY_EXISTS', `Somebody signs in as ${clip(invitation.email)} already.`),
        );
      }
      await audited(tx, request, undefined, created);
      return created;
    });
    await mailed(made, 'invitation');
    return reply.code(201).header('location', `${path}/${made.id}`).send(accountOf(made));
  });

  app.patch(`${path}/:id`, async (request) => {
    const before = await person(request);
    const { change, endsSessions } = applied(
      planAccountChange(model, principalOf(request), accountOf(before), request.body),
    );
    if (Object.keys(change).length === 0) return accountOf(before);
    const after = await store.transaction(async (tx) => {
      const changed = await tx.updateUser(before.id, {
        ...(change.role === undefined ? {} : { role: change.role }),
        ...(change.attributes === undefined ? {} : { attributes: change.attributes }),
        ...(change.active === undefined
          ? {}
          : { deactivatedAt: change.active ? null : options.links.now().toISOString() }),
        ...(endsSessions ? { endSessions: true as const } : {}),
      });
      if (!changed) throw new ProblemError(noSuchPerson(before.id));
      await audited(tx, request, before, changed);
      return changed;
    });
    return accountOf(after);
  });

  app.post(`${path}/:id/sign-out`, async (request, reply) => {
    const before = await person(request);
    await store.transaction(async (tx) => {
      const changed = await tx.updateUser(before.id, { endSessions: true });
      if (!changed) throw new ProblemError(noSuchPerson(before.id));
      await audited(tx, request, before, changed);
    });
    return reply.code(204).send();
  });

  app.post(`${path}/:id/invitation`, async (request, reply) => {
    const user = await person(request);
    if (accountOf(user).status !== 'invited') {
      throw new ProblemError(
        problem(
          409,
          'NOT_INVITED',
          `${clip(user.email)} has a password already: they can reset it themselves.`,
        ),
      );
    }
    await mailed(user, 'invitation');
    return reply.code(204).send();
  });

  /** The person a path names, for a manager of people only (others learn nothing of who exists). */
  async function person(request: FastifyRequest): Promise<StoredUser> {
    managing(request);
    const { id } = request.params as { id: string };
    const found = await store.findUser({ id });
    if (!found) throw new ProblemError(noSuchPerson(id));
    return found;
  }

  async function mailed(user: StoredUser, purpose: 'invitation' | 'reset'): Promise<void> {
    try {
      await sendLink(store, options.links, user, purpose, product);
    } catch (error) {
      throw new ProblemError(
        problem(
          502,
          'MAIL_NOT_SENT',
          `${clip(user.email)} is saved, but the mail server did not take the invitation (${mailError(error)}). ` +
            'Send it again from People once the mail server answers.',
        ),
      );
    }
  }

  async function audited(
    tx: Store,
    request: FastifyRequest,
    before: StoredUser | undefined,
    after: StoredUser,
  ): Promise<void> {
    if (!options.audit) return;
    const entry: NewAuditEntry = {
      at: options.links.now().toISOString(),
      entity: PERSON_AUDIT_ENTITY,
      // By email, which names the person to a reader and never changes (nothing changes an email).
      key: after.email,
      action: before === undefined ? 'create' : 'update',
      call: callOf(request),
      by: writerOf(request),
      before: before === undefined ? null : auditedPerson(before),
      after: auditedPerson(after),
    };
    await tx.appendAudit([entry]);
  }
}

/** A stored user as a manager sees them: never a hash. */
export function accountOf(user: StoredUser): Account {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    status:
      user.deactivatedAt !== undefined
        ? 'deactivated'
        : user.passwordHash === undefined
          ? 'invited'
          : 'active',
    attributes: user.attributes,
  };
}

/** What the audit trail keeps of a person: who they are and may do, and how often their sessions ended. */
export function auditedPerson(user: StoredUser): Record<string, JsonValue> {
  const { id, email, role, status, attributes } = accountOf(user);
  return { id, email, role, status, ...attributes, sessionsEnded: user.sessions ?? 0 };
}

function noSuchPerson(id: string) {
  return problem(404, 'NOT_FOUND', `There is no person ${clip(id)}.`);
}

/** What the mail server said, without anything of the message. */
function mailError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return clip(text.split('\n')[0] ?? 'no answer');
}
