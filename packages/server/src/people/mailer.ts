import nodemailer from 'nodemailer';

/** An email with one link in it: an invitation, or a password reset. */
export interface LinkMail {
  to: string;
  subject: string;
  /** The body's lines; the link is its own line after them. */
  lines: string[];
  link: string;
}

/** Where invitations and resets go: an SMTP server, or the operator's terminal when there is none. */
export interface Mailer {
  send(mail: LinkMail): Promise<void>;
  /** Closes the SMTP connections, at the server's stop. */
  close(): void;
}

/**
 * `--smtp URL` (`smtp://user:pass@host:587`, `smtps://…:465`, with `?from=Team%20<team@example.com>`)
 * sends through that server, with nodemailer. Without one, each link is printed for the operator to pass
 * on: the link is a one-use secret, so it goes to the terminal only, never to the request log.
 *
 * @example
 * ```ts
 * const mailer = createMailer({ smtp: 'smtp://localhost:2525', print: console.log });
 * await mailer.send({ to: 'ann@example.com', subject: 'You are invited', lines: ['Set your password:'], link });
 * ```
 */
export function createMailer(options: { smtp?: string; print: (line: string) => void }): Mailer {
  if (options.smtp === undefined) {
    return {
      async send(mail) {
        options.print(`${mail.subject}, for ${mail.to} (no --smtp, so it is shown here): ${mail.link}`);
      },
      close() {},
    };
  }
  const { url, from } = smtpSettings(options.smtp);
  const transport = nodemailer.createTransport(url, { from });
  return {
    async send(mail) {
      await transport.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: [...mail.lines, '', mail.link, ''].join('\n'),
      });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * The SMTP URL nodemailer takes, and the sender: `?from=` when given, else `no-reply@` the server's host.
 * A URL that is not one is refused here, at start, with what to write instead.
 */
export function smtpSettings(text: string): { url: string; from: string } {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new Error(
      `--smtp takes a URL like smtp://user:password@mail.example.com:587; "${masked(text)}" is not one.`,
    );
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new Error(`--smtp takes an smtp:// or smtps:// URL, not ${parsed.protocol}//.`);
  }
  const from = parsed.searchParams.get('from') ?? `Ninefold <no-reply@${parsed.hostname || 'localhost'}>`;
  parsed.searchParams.delete('from');
  return { url: parsed.toString(), from };
}

/** A URL as it may be shown: never its password. */
function masked(text: string): string {
  return text.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@').slice(0, 120);
}
