// Managing people on a domain of our own (a community choir, test/fixtures/choir.yaml), on both
// databases, with a real SMTP server (smtp-server from npm) receiving every invitation and reset. The
// oracle is the specification's words: "the director ... manages its people", nobody else; a section
// leader reads "the singers of their own section" (user.section), the one attribute a manager may set.
import { readFileSync } from 'node:fs';
import { loadSpec, type Model } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedMail as Mail, startSmtp, type TestSmtp } from '../../../test/support/smtp';
import { buildApp } from '../src/app';
import { createMailer } from '../src/people/mailer';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { dropSchema, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

const model = (() => {
  const text = readFileSync(new URL('./fixtures/choir.yaml', import.meta.url), 'utf8');
  const loaded = loadSpec(text, { file: 'choir.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model as Model;
})();

const databases = await testDatabases();

for (const database of databases) {
  const title = `managing people, on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    let app: FastifyInstance;
    let store: Store;
    let schema: string | undefined;
    let smtp: TestSmtp;
    let clock = Date.parse('2026-11-30T09:00:00Z');
    const people: Record<string, { id: string; headers: Record<string, string> }> = {};

    beforeAll(async () => {
      smtp = await startSmtp();
      schema = database.postgres ? uniqueSchema('people') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({
        model,
        store,
        now: () => new Date(clock),
        people: {
          publicUrl: () => 'https://choir.test',
          mailer: createMailer({ smtp: `smtp://127.0.0.1:${smtp.port}`, print: () => undefined }),
        },
      });
      for (const [name, role, attributes] of [
        ['dana', 'director', {}],
        ['lou', 'leader', { section: 'bass' }],
        ['sam', 'singer', {}],
      ] as const) {
        const signed = await signInAs(app, store, role, attributes, `${name}@choir.test`);
        people[name] = { id: signed.userId, headers: { authorization: signed.authorization } };
      }
      for (const [name, section] of [
        ['Alma', 'alto'],
        ['Ben', 'bass'],
        ['Tess', 'tenor'],
      ]) {
        const made = await app.inject({
          method: 'POST',
          url: '/api/singers',
          headers: people.dana?.headers,
          payload: { name, section },
        });
        expect(made.statusCode).toBe(201);
      }
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await store?.close();
      await smtp?.close();
      if (schema) await dropSchema(schema);
    });

    const as = (name: string) => people[name]?.headers ?? {};
    const signIn = (email: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { email, password } });
    const mailTo = (to: string, count: number) => smtp.mailTo(to, count);
    const tokenOf = (mail: Mail) => {
      const link = /https:\/\/choir\.test\/_\/password#(\S+)/.exec(mail.text)?.[1];
      if (!link) throw new Error(`no link in ${mail.text}`);
      return new URLSearchParams(link);
    };

    it('lets only the role point 6 says manages people list, invite, change and sign people out', async () => {
      // Every call of the API, by every role and by nobody: the oracle is "the director manages people".
      const target = people.sam?.id as string;
      const calls = [
        { method: 'GET', url: '/api/_accounts' },
        { method: 'POST', url: '/api/_accounts', payload: { email: 'x@choir.test', role: 'singer' } },
        { method: 'PATCH', url: `/api/_accounts/${target}`, payload: { role: 'leader' } },
        { method: 'POST', url: `/api/_accounts/${target}/sign-out` },
        { method: 'POST', url: `/api/_accounts/${target}/invitation` },
      ] as const;
      for (const call of calls) {
        expect((await app.inject({ ...call })).statusCode, `${call.method} ${call.url} by nobody`).toBe(401);
        for (const who of ['lou', 'sam']) {
          const answer = await app.inject({ ...call, headers: as(who) });
          expect(answer.statusCode, `${call.method} ${call.url} by ${who}`).toBe(403);
          expect(answer.json().code).toBe('FORBIDDEN');
        }
      }
      expect(await store.findUser({ email: 'x@choir.test' })).toBeUndefined();
      expect((await store.findUser({ id: target }))?.role).toBe('singer');
      const list = await app.inject({ url: '/api/_accounts', headers: as('dana') });
      expect(list.statusCode).toBe(200);
      expect(
        list.json().items.map((each: { email: string; status: string }) => [each.email, each.status]),
      ).toEqual([
        ['dana@choir.test', 'active'],
        ['lou@choir.test', 'active'],
        ['sam@choir.test', 'active'],
      ]);
      expect(list.body).not.toMatch(/scrypt|hash/i);
    });

    it('invites by email with a one-use link; the colleague sets a password, signs in, and reads as their section', async () => {
      const refused = await app.inject({
        method: 'POST',
        url: '/api/_accounts',
        headers: as('dana'),
        payload: { email: 'not-an-email', role: 'conductor', attributes: { voice: 'alto' } },
      });
      expect(refused.statusCode).toBe(422);
      expect(
        refused
          .json()
          .errors.map((error: { pointer: string }) => error.pointer)
          .sort(),
      ).toEqual(['/attributes/voice', '/email', '/role']);

      const invited = await app.inject({
        method: 'POST',
        url: '/api/_accounts',
        headers: as('dana'),
        payload: { email: 'Ada@Choir.test', role: 'leader', attributes: { section: 'alto' } },
      });
      expect(invited.statusCode).toBe(201);
      expect(invited.json()).toMatchObject({ email: 'ada@choir.test', role: 'leader', status: 'invited' });
      const again = await app.inject({
        method: 'POST',
        url: '/api/_accounts',
        headers: as('dana'),
        payload: { email: 'ada@choir.test', role: 'singer' },
      });
      expect(again.statusCode).toBe(409);

      const mail = await mailTo('ada@choir.test', 1);
      expect(mail.subject).toBe('You are invited to Northside community choir');
      const link = tokenOf(mail);
      expect(link.get('purpose')).toBe('invitation');
      const token = link.get('token') as string;
      // Invited, with no password yet: nothing signs in.
      expect((await signIn('ada@choir.test', '')).statusCode).toBe(401);

      const short = await app.inject({
        method: 'POST',
        url: '/api/auth/password',
        payload: { token, password: 'short' },
      });
      expect(short.statusCode).toBe(422);
      expect(short.json().errors[0].pointer).toBe('/password');
      const set = await app.inject({
        method: 'POST',
        url: '/api/auth/password',
        payload: { token, password: 'alto voices carry' },
      });
      expect(set.statusCode).toBe(204);
      const twice = await app.inject({
        method: 'POST',
        url: '/api/auth/password',
        payload: { token, password: 'another password' },
      });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().code).toBe('LINK_NOT_VALID');

      const session = await signIn('ada@choir.test', 'alto voices carry');
      expect(session.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${session.json().token}` };
      people.ada = { id: invited.json().id, headers };
      const singers = await app.inject({ url: '/api/singers', headers });
      expect(singers.json().items.map((singer: { name: string }) => singer.name)).toEqual(['Alma']);
    });

    it("changes a person's attribute (their reads follow at once) and role (their sessions end)", async () => {
      const id = people.ada?.id as string;
      const moved = await app.inject({
        method: 'PATCH',
        url: `/api/_accounts/${id}`,
        headers: as('dana'),
        payload: { attributes: { section: 'tenor' } },
      });
      expect(moved.statusCode).toBe(200);
      const singers = await app.inject({ url: '/api/singers', headers: as('ada') });
      expect(singers.json().items.map((singer: { name: string }) => singer.name)).toEqual(['Tess']);

      const promoted = await app.inject({
        method: 'PATCH',
        url: `/api/_accounts/${id}`,
        headers: as('dana'),
        payload: { role: 'singer' },
      });
      expect(promoted.json()).toMatchObject({ role: 'singer', attributes: {} });
      const after = await app.inject({ url: '/api/rehearsals', headers: as('ada') });
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe('SESSION_EXPIRED');
      await app.inject({
        method: 'PATCH',
        url: `/api/_accounts/${id}`,
        headers: as('dana'),
        payload: { role: 'leader', attributes: { section: 'alto' } },
      });
    });

    it("ends all of a person's sessions, and refuses a manager's own demotion or deactivation", async () => {
      const first = await signIn('ada@choir.test', 'alto voices carry');
      const second = await signIn('ada@choir.test', 'alto voices carry');
      const tokens = [first, second].map((answer) => ({ authorization: `Bearer ${answer.json().token}` }));
      for (const headers of tokens)
        expect((await app.inject({ url: '/api/rehearsals', headers })).statusCode).toBe(200);
      const ended = await app.inject({
        method: 'POST',
        url: `/api/_accounts/${people.ada?.id}/sign-out`,
        headers: as('dana'),
      });
      expect(ended.statusCode).toBe(204);
      for (const headers of tokens)
        expect((await app.inject({ url: '/api/rehearsals', headers })).statusCode).toBe(401);
      // Signing in again starts a session that holds.
      const fresh = await signIn('ada@choir.test', 'alto voices carry');
      people.ada = {
        id: people.ada?.id as string,
        headers: { authorization: `Bearer ${fresh.json().token}` },
      };
      expect((await app.inject({ url: '/api/rehearsals', headers: as('ada') })).statusCode).toBe(200);

      for (const payload of [{ active: false }, { role: 'singer' }]) {
        const own = await app.inject({
          method: 'PATCH',
          url: `/api/_accounts/${people.dana?.id}`,
          headers: as('dana'),
          payload,
        });
        expect(own.statusCode).toBe(409);
        expect(own.json().code).toBe('OWN_ACCOUNT');
      }
    });

    it('resets a password by email, telling nobody which emails have accounts, and expires the link', async () => {
      const unknown = await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: 'nobody@choir.test' },
      });
      const known = await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: 'ADA@choir.test' },
      });
      expect([unknown.statusCode, known.statusCode]).toEqual([202, 202]);
      expect(unknown.body).toBe(known.body);
      const mail = await mailTo('ada@choir.test', 2);
      expect(mail.subject).toBe('Reset your password for Northside community choir');
      expect(tokenOf(mail).get('purpose')).toBe('reset');
      const set = await app.inject({
        method: 'POST',
        url: '/api/auth/password',
        payload: { token: tokenOf(mail).get('token'), password: 'tenors hold the line' },
      });
      expect(set.statusCode).toBe(204);
      expect((await signIn('ada@choir.test', 'alto voices carry')).statusCode).toBe(401);
      expect((await signIn('ada@choir.test', 'tenors hold the line')).statusCode).toBe(200);
      // The session from before the reset ended with it.
      expect((await app.inject({ url: '/api/rehearsals', headers: as('ada') })).statusCode).toBe(401);
      expect(smtp.mails.some((each) => each.to === 'nobody@choir.test')).toBe(false);

      // A link used after its hour is refused.
      await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: 'ada@choir.test' },
      });
      const late = await mailTo('ada@choir.test', 3);
      clock += 61 * 60 * 1000;
      const expired = await app.inject({
        method: 'POST',
        url: '/api/auth/password',
        payload: { token: tokenOf(late).get('token'), password: 'too late for this' },
      });
      expect(expired.json().code).toBe('LINK_NOT_VALID');
    });

    it('deactivates a person: every credential is refused, no reset is sent, and reactivating lets them back', async () => {
      const session = await signIn('ada@choir.test', 'tenors hold the line');
      const headers = { authorization: `Bearer ${session.json().token}` };
      const off = await app.inject({
        method: 'PATCH',
        url: `/api/_accounts/${people.ada?.id}`,
        headers: as('dana'),
        payload: { active: false },
      });
      expect(off.json().status).toBe('deactivated');
      expect((await app.inject({ url: '/api/rehearsals', headers })).statusCode).toBe(401);
      expect((await signIn('ada@choir.test', 'tenors hold the line')).statusCode).toBe(401);
      const mails = smtp.mails.length;
      clock += 2 * 3600 * 1000;
      await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: 'ada@choir.test' },
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.mails.length).toBe(mails);
      await app.inject({
        method: 'PATCH',
        url: `/api/_accounts/${people.ada?.id}`,
        headers: as('dana'),
        payload: { active: true },
      });
      expect((await signIn('ada@choir.test', 'tenors hold the line')).statusCode).toBe(200);
    });

    it('records every change of a person in the audit trail, for those who manage people only, and never a secret', async () => {
      const trail = await app.inject({ url: '/api/_audit?limit=200', headers: as('dana') });
      const entries = (
        trail.json().items as { entity: string; key: string; action: string; by?: { id: string } }[]
      ).filter((entry) => entry.entity === '_person');
      // Invited, moved, demoted, restored, sessions ended, password set twice, deactivated, reactivated.
      expect(entries.map((entry) => entry.action).reverse()).toEqual([
        'create',
        'update',
        'update',
        'update',
        'update',
        'update',
        'update',
        'update',
        'update',
      ]);
      expect(entries.every((entry) => entry.key === 'ada@choir.test')).toBe(true);
      expect(trail.body).not.toMatch(/scrypt|password_hash|passwordHash|apiKey/);
      for (const who of ['lou', 'sam', 'ada']) {
        const theirs = await app.inject({ url: '/api/_audit?limit=200', headers: as(who) });
        expect(theirs.body).not.toContain('_person');
      }
    });

    it("ends a person's open events stream when a manager changes them, so it never shows what they no longer may see", async () => {
      const base = await app.listen({ host: '127.0.0.1', port: 0 });
      /** A stream read until it ends: whether it ended, and the changes it was sent. */
      const follow = async (headers: Record<string, string>) => {
        const answer = await fetch(`${base}/api/_events`, { headers });
        expect(answer.status).toBe(200);
        const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
        const state = { ended: false, text: '' };
        void (async () => {
          for (;;) {
            const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
            if (chunk.done) break;
            state.text += new TextDecoder().decode(chunk.value);
          }
          state.ended = true;
        })();
        await new Promise((resolve) => setTimeout(resolve, 100));
        return state;
      };
      const singer = (name: string, section: string) =>
        app.inject({ method: 'POST', url: '/api/singers', headers: as('dana'), payload: { name, section } });
      const until = async (done: () => boolean) => {
        for (let waited = 0; waited < 3000 && !done(); waited += 20)
          await new Promise((resolve) => setTimeout(resolve, 20));
      };

      // Lou leads the basses; a stream opened then sees a new bass.
      const stream = await follow(as('lou'));
      await singer('Boris', 'bass');
      await until(() => stream.text.includes('Boris'));
      expect(stream.text).toContain('Boris');
      // Moved to the altos, Lou's stream (opened as a bass leader) ends before it sends anything more:
      // neither the next bass nor the next alto reach it.
      const moved = await app.inject({
        method: 'PATCH',
        url: `/api/_accounts/${people.lou?.id}`,
        headers: as('dana'),
        payload: { attributes: { section: 'alto' } },
      });
      expect(moved.statusCode).toBe(200);
      await singer('Bruno', 'bass');
      await until(() => stream.ended);
      expect(stream.ended).toBe(true);
      expect(stream.text).not.toContain('Bruno');
      // Opened again, it follows the altos.
      const again = await follow(as('lou'));
      await singer('Alba', 'alto');
      await until(() => again.text.includes('Alba'));
      expect(again.text).toContain('Alba');
      // Deactivated: the stream ends at the next change, and a new one is refused.
      await app.inject({
        method: 'PATCH',
        url: `/api/_accounts/${people.lou?.id}`,
        headers: as('dana'),
        payload: { active: false },
      });
      await singer('Alda', 'alto');
      await until(() => again.ended);
      expect(again.ended).toBe(true);
      expect(again.text).not.toContain('Alda');
      expect((await fetch(`${base}/api/_events`, { headers: as('lou') })).status).toBe(401);
    });
  });
}
