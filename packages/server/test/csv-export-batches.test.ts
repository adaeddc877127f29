// The exports' batches: the next batch is asked for before the one in hand is written (the database
// reads while the server writes), a download cut off with a batch on its way ends quietly, and the audit
// trail's export, read ahead the same way, has every entry once past its first batch.
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { loadSpec } from '@ninefold/model';
import { parse } from 'csv-parse/sync';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { sendCsv } from '../src/csv-export';
import { openStore } from '../src/store/open-store';
import type { ListQuery, ListResult, StoredRecord } from '../src/store/store';
import { signInAs } from './support/sign-in';

/** The few calls of a reply that sendCsv makes; the stream it sends is kept. */
function fakeReply(): { reply: FastifyReply; sent: () => Readable } {
  let stream: Readable | undefined;
  const reply = {
    type: () => reply,
    header: () => reply,
    send: (body: Readable) => {
      stream = body;
      return reply;
    },
  };
  return {
    reply: reply as unknown as FastifyReply,
    sent: () => {
      if (!stream) throw new Error('nothing was sent');
      return stream;
    },
  };
}

/** Three batches of two records, the cursor naming the next batch. */
function pageAfter(cursor: string | undefined): ListResult {
  const batch = cursor === undefined ? 0 : Number(cursor);
  return {
    items: [{ id: batch * 2 + 1 }, { id: batch * 2 + 2 }],
    ...(batch < 2 ? { nextCursor: String(batch + 1) } : {}),
  };
}

function exportWith(
  read: (query: Pick<ListQuery, 'cursor' | 'limit'>) => Promise<ListResult>,
  present: (record: StoredRecord) => StoredRecord = (record) => record,
) {
  const { reply, sent } = fakeReply();
  const errors: unknown[] = [];
  sendCsv(reply, {
    filename: 'things.csv',
    fields: [],
    storeId: true,
    present,
    read,
    onError: (error) => errors.push(error),
  });
  return { stream: sent(), errors };
}

describe("an export's batches", () => {
  it('asks for the next batch before the one in hand is written, and writes each once, in order', async () => {
    const events: string[] = [];
    const { stream } = exportWith(
      async (query) => {
        events.push(`read ${query.cursor ?? 'first'}`);
        return pageAfter(query.cursor);
      },
      (record) => {
        events.push(`write ${record.id}`);
        return record;
      },
    );
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(String(chunk));
    expect(events).toEqual([
      'read first',
      'read 1',
      'write 1',
      'write 2',
      'read 2',
      'write 3',
      'write 4',
      'write 5',
      'write 6',
    ]);
    expect(chunks.join('')).toBe('\uFEFFid\n1\n2\n3\n4\n5\n6\n');
  });

  it('ends quietly when the download is cut off while the next batch fails on its way', async () => {
    // A first batch larger than the stream holds, so that it waits to be taken with the next one asked for.
    const large = 'x'.repeat(64 * 1024);
    let failNext: (error: Error) => void = () => undefined;
    const { stream, errors } = exportWith((query) =>
      query.cursor === undefined
        ? Promise.resolve({ items: [{ id: large }], nextCursor: '1' })
        : new Promise<ListResult>((_, reject) => {
            failNext = reject;
          }),
    );
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      stream.read(0);
      while (stream.readableLength === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      stream.destroy();
      failNext(new Error('the connection to the database was closed'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });
});

describe("the audit trail's export", () => {
  it('has every entry once, newest first, past its first batch of 1,000', async () => {
    const loaded = loadSpec(readFileSync(new URL('./fixtures/radio.yaml', import.meta.url), 'utf8'), {
      file: 'radio.yaml',
    });
    if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
    const store = await openStore({ model: loaded.model, url: 'sqlite::memory:' });
    try {
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      const app = await buildApp({ model: loaded.model, store });
      const { authorization } = await signInAs(app, store, 'producer', {}, 'producer@radio.test');
      const made = 1_050;
      for (let n = 1; n <= made; n++) {
        const answer = await app.inject({
          method: 'POST',
          url: '/api/programmes',
          headers: { authorization },
          payload: { title: `Programme ${n}` },
        });
        expect(answer.statusCode, answer.body).toBe(201);
      }
      const answer = await app.inject({ url: '/api/_audit', headers: { authorization, accept: 'text/csv' } });
      expect(answer.statusCode).toBe(200);
      const rows = parse(answer.body.replace(/^\uFEFF/, ''), { columns: true }) as Array<
        Record<string, string>
      >;
      const titles = rows.filter((row) => row.field === 'title');
      expect(titles.map((row) => row.after)).toEqual(
        Array.from({ length: made }, (_, index) => `Programme ${made - index}`),
      );
      await app.close();
    } finally {
      await store.close();
    }
  }, 60_000);
});
