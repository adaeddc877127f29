import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the test's mail server took, parsed. */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

export interface TestSmtp {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** The `count`th mail to `to` (1 for the first), waiting up to 10 s for it. */
  mailTo(to: string, count?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server, from npm) on a free port of 127.0.0.1: every message it takes is
 * parsed (mailparser) and kept, in order, for the test to read as the person it was sent to would.
 */
export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
          mails.push({
            to: to?.value[0]?.address ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async mailTo(to, count = 1) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = mails.filter((mail) => mail.to === to);
        if (found.length >= count) return found[count - 1] as ReceivedMail;
        if (Date.now() > deadline) throw new Error(`no mail ${count} to ${to}: ${JSON.stringify(mails)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
