import { type Model, PERSON_AUDIT_ENTITY, passwordError, validationRefusal } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../auth/passwords';
import { createSignInThrottle } from '../auth/sign-in-throttle';
import { ProblemError, problem, refusalProblem } from '../problem';
import type { Store } from '../store/store';
import { auditedPerson } from './account-routes';
import { type LinkSettings, sendLink, tokenHash } from './links';

export interface PasswordOptions {
  model: Model;
  store: Store;
  links: LinkSettings;
  audit: boolean;
  /** Where a link that could not be sent is told (the mail server's failure): never to the asker. */
  onServerError?: (reference: string, error: unknown) => void;
}

/** Links one email may be sent before the next waits, doubling from a minute up to an hour. */
const FREE_RESETS = 3;
const MAX_FIELD = 1024;

/**
 * `POST {reset}` `{ email }` sends a one-use reset link to an active person, and answers 202 whether or
 * not the email is somebody's, so the call tells nobody who has an account. `POST {password}`
 * `{ token, password }` sets the password of the link's person (a reset, or accepting an invitation) and
 * ends their other sessions.
 */
export function registerPasswordRoutes(
  app: FastifyInstance,
  paths: { reset: string; password: string },
  options: PasswordOptions,
): void {
  const { store } = options;
  const product = options.model.title ?? 'Ninefold';
  // Counted for every email asked, existing or not: being throttled tells nothing either.
  const throttle = createSignInThrottle({
    counts: store.shared,
    free: FREE_RESETS,
    baseSeconds: 60,
    maxSeconds: 3600,
    now: () => options.links.now().getTime(),
  });

  app.post(paths.reset, { bodyLimit: 4096 }, async (request, reply) => {
    const email = textField(request.body, 'email', ['email']).trim().toLowerCase();
    const key = `password-reset|${email}`;
    const allowed = await throttle.check(key);
    if (!allowed.allowed) {
      reply.header('retry-after', String(allowed.retryAfterSeconds));
      throw new ProblemError(
        problem(
          429,
          'TOO_MANY_ATTEMPTS',
          `Too many links were asked for this email. Wait ${allowed.retryAfterSeconds} s, or use the last one.`,
        ),
      );
    }
    await throttle.failed(key);
    const user = await store.findUser({ email });
    if (user && user.deactivatedAt === undefined && user.passwordHash !== undefined) {
      // Sent after answering: the time to answer must not tell whether mail went out.
      void sendLink(store, options.links, user, 'reset', product).catch((error: unknown) =>
        options.onServerError?.('password-reset', error),
      );
    }
    return reply.code(202).send();
  });

  app.post(paths.password, { bodyLimit: 4096 }, async (request, reply) => {
    const token = textField(request.body, 'token', ['token', 'password']);
    const password = textField(request.body, 'password', ['token', 'password']);
    const weak = passwordError(password);
    if (weak) throw new ProblemError(refusalProblem(validationRefusal([weak])));
    // Hashed before the link is used: a slow hash must not hold a transaction open.
    const hash = await hashPassword(password);
    await store.transaction(async (tx) => {
      const link = await tx.redeemUserLink(tokenHash(token), options.links.now().toISOString());
      const before = link ? await tx.findUser({ id: link.userId }) : undefined;
      if (!link || !before || before.deactivatedAt !== undefined) {
        throw new ProblemError(
          problem(
            400,
            'LINK_NOT_VALID',
            'This link was used already, has expired, or is not one we sent. Ask for a new one.',
          ),
        );
      }
      const after = await tx.updateUser(before.id, { passwordHash: hash, endSessions: true });
      if (options.audit && after) {
        await tx.appendAudit([
          {
            at: options.links.now().toISOString(),
            entity: PERSON_AUDIT_ENTITY,
            key: before.email,
            action: 'update',
            call: `POST ${request.routeOptions.url ?? paths.password}`,
            // Set by the person themselves, whoever they were signed in as (if anyone).
            by: { id: before.id, name: before.email },
            before: auditedPerson(before),
            after: auditedPerson(after),
          },
        ]);
      }
    });
    return reply.code(204).send();
  });
}

/** A text field of a JSON body that holds exactly `keys`; anything else is refused as the field named. */
function textField(body: unknown, name: string, keys: string[]): string {
  const object =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  const extra = object ? Object.keys(object).find((key) => !keys.includes(key)) : undefined;
  const value = object?.[name];
  if (extra !== undefined || typeof value !== 'string' || value.length === 0 || value.length > MAX_FIELD) {
    throw new ProblemError(
      refusalProblem(
        validationRefusal([
          {
            pointer: `/${extra ?? name}`,
            code: extra === undefined ? 'required' : 'unknown-field',
            message:
              extra === undefined
                ? `Send {${keys.map((key) => `"${key}": "…"`).join(', ')}} as JSON.`
                : `"${extra}" is not taken here.`,
          },
        ]),
      ),
    );
  }
  return value;
}
