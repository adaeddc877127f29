import { readFile, stat } from 'node:fs/promises';
import { smtpSettings } from '@ninefold/server';

/**
 * `serve`'s production settings, each from its flag or else from the environment (12-factor): one node
 * or many, the same variables configure them all. Only `NINEFOLD_`-prefixed variables are read, so that
 * a `PORT` or `DATABASE_URL` meant for another program on the machine is never taken for ours.
 */
export const SERVE_ENVIRONMENT = {
  db: 'NINEFOLD_DATABASE_URL',
  dbDirect: 'NINEFOLD_DATABASE_DIRECT_URL',
  port: 'NINEFOLD_PORT',
  host: 'NINEFOLD_HOST',
  bodyLimit: 'NINEFOLD_BODY_LIMIT',
  allowedOrigins: 'NINEFOLD_ALLOWED_ORIGINS',
  secret: 'NINEFOLD_SECRET',
  previousSecret: 'NINEFOLD_SECRET_PREVIOUS',
  demoPassword: 'NINEFOLD_DEMO_PASSWORD',
  liveUpdates: 'NINEFOLD_LIVE_UPDATES',
  logLevel: 'NINEFOLD_LOG_LEVEL',
  metricsPort: 'NINEFOLD_METRICS_PORT',
  metricsToken: 'NINEFOLD_METRICS_TOKEN',
  drainSeconds: 'NINEFOLD_DRAIN_SECONDS',
  audit: 'NINEFOLD_AUDIT',
  auditDays: 'NINEFOLD_AUDIT_DAYS',
  smtp: 'NINEFOLD_SMTP_URL',
  publicUrl: 'NINEFOLD_PUBLIC_URL',
} as const;

export interface ServeFlags {
  db?: string | undefined;
  'db-direct-url'?: string | undefined;
  port?: string | undefined;
  host?: string | undefined;
  'body-limit'?: string | undefined;
  'allow-origin'?: string[] | undefined;
  'secret-file'?: string | undefined;
  'previous-secret-file'?: string | undefined;
  'no-live-updates'?: boolean | undefined;
  'log-level'?: string | undefined;
  'metrics-port'?: string | undefined;
  'metrics-token-file'?: string | undefined;
  'drain-seconds'?: string | undefined;
  'no-audit'?: boolean | undefined;
  'audit-days'?: string | undefined;
  smtp?: string | undefined;
  'public-url'?: string | undefined;
}

export interface ServeConfig {
  db?: string;
  /** A direct PostgreSQL URL for listening, when `db` goes through a pooler in transaction mode. */
  dbDirect?: string;
  port?: string;
  host?: string;
  bodyLimit?: string;
  allowedOrigins: string[];
  secret?: string;
  previousSecret?: string;
  demoPassword?: string;
  /** Whether changes are streamed to clients. */
  liveUpdates: boolean;
  /** As given; the command checks it (see `LOG_LEVELS`). */
  logLevel?: string;
  metricsPort?: string;
  /** `/metrics` on the API's port answers this bearer token only. */
  metricsToken?: string;
  drainSeconds?: string;
  /** Whether every write is recorded in the audit trail. */
  audit: boolean;
  auditDays?: string;
  /** Where invitations and password resets are sent: an smtp:// or smtps:// URL, checked. */
  smtp?: string;
  /** The client's address as people reach it, for the links they are sent: an origin, checked. */
  publicUrl?: string;
  /** Said once at start: a secret file others may read, say. */
  warnings: string[];
}

/**
 * Merges flags over the environment, reads the secret files, and checks the origins. Values stay text
 * where the command checks them itself (numbers); nothing secret is ever put in a message.
 *
 * @example
 * ```ts
 * await serveConfig({ port: '8080' }, { NINEFOLD_SECRET: '…' }); // { ok: true, config: { port: '8080', secret: '…', … } }
 * ```
 */
export async function serveConfig(
  flags: ServeFlags,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true; config: ServeConfig } | { ok: false; message: string }> {
  const from = (flag: string | undefined, name: keyof typeof SERVE_ENVIRONMENT) => {
    if (flag !== undefined) return flag;
    const value = env[SERVE_ENVIRONMENT[name]];
    return value === undefined || value === '' ? undefined : value;
  };
  const warnings: string[] = [];
  const secret = await secretFrom(
    flags['secret-file'],
    env[SERVE_ENVIRONMENT.secret],
    '--secret-file',
    warnings,
  );
  if (!secret.ok) return secret;
  const previous = await secretFrom(
    flags['previous-secret-file'],
    env[SERVE_ENVIRONMENT.previousSecret],
    '--previous-secret-file',
    warnings,
  );
  if (!previous.ok) return previous;
  const metricsToken = await secretFrom(
    flags['metrics-token-file'],
    env[SERVE_ENVIRONMENT.metricsToken],
    '--metrics-token-file',
    warnings,
  );
  if (!metricsToken.ok) return metricsToken;
  if (metricsToken.value !== undefined && metricsToken.value.length < 16) {
    return { ok: false, message: 'The metrics token must be at least 16 characters.' };
  }
  const origins = flags['allow-origin'] ?? splitList(env[SERVE_ENVIRONMENT.allowedOrigins]);
  const allowedOrigins: string[] = [];
  for (const origin of origins) {
    const checked = originOf(origin);
    if (!checked.ok) return checked;
    allowedOrigins.push(checked.origin);
  }
  const live = env[SERVE_ENVIRONMENT.liveUpdates]?.trim().toLowerCase();
  if (live !== undefined && live !== '' && !ON_OFF.includes(live)) {
    return {
      ok: false,
      message: `${SERVE_ENVIRONMENT.liveUpdates} is on or off, not "${live.slice(0, 20)}".`,
    };
  }
  const liveUpdates = flags['no-live-updates'] ? false : !['off', 'false', '0'].includes(live ?? '');
  const auditSetting = env[SERVE_ENVIRONMENT.audit]?.trim().toLowerCase();
  if (auditSetting !== undefined && auditSetting !== '' && !ON_OFF.includes(auditSetting)) {
    return {
      ok: false,
      message: `${SERVE_ENVIRONMENT.audit} is on or off, not "${auditSetting.slice(0, 20)}".`,
    };
  }
  const audit = flags['no-audit'] ? false : !['off', 'false', '0'].includes(auditSetting ?? '');
  const config: ServeConfig = { allowedOrigins, warnings, liveUpdates, audit };
  const set = <K extends keyof ServeConfig>(key: K, value: ServeConfig[K] | undefined) => {
    if (value !== undefined) config[key] = value;
  };
  set('db', from(flags.db, 'db'));
  set('dbDirect', from(flags['db-direct-url'], 'dbDirect'));
  set('port', from(flags.port, 'port'));
  set('host', from(flags.host, 'host'));
  set('bodyLimit', from(flags['body-limit'], 'bodyLimit'));
  set('secret', secret.value);
  set('previousSecret', previous.value);
  set('logLevel', from(flags['log-level'], 'logLevel'));
  set('metricsPort', from(flags['metrics-port'], 'metricsPort'));
  set('metricsToken', metricsToken.value);
  set('drainSeconds', from(flags['drain-seconds'], 'drainSeconds'));
  set('auditDays', from(flags['audit-days'], 'auditDays'));
  const smtp = from(flags.smtp, 'smtp');
  if (smtp !== undefined) {
    try {
      smtpSettings(smtp);
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
    config.smtp = smtp;
  }
  const publicUrl = from(flags['public-url'], 'publicUrl');
  if (publicUrl !== undefined) {
    const checked = originOf(publicUrl.replace(/\/+$/, ''));
    if (!checked.ok) {
      return {
        ok: false,
        message: `--public-url is the client's address as people reach it, like https://admin.example.com; "${publicUrl.slice(0, 80)}" is not one.`,
      };
    }
    config.publicUrl = checked.origin;
  }
  const demo = env[SERVE_ENVIRONMENT.demoPassword];
  if (demo !== undefined && demo !== '') {
    if (demo.length < 8 || /\s/.test(demo)) {
      return {
        ok: false,
        message: `${SERVE_ENVIRONMENT.demoPassword} must be at least 8 characters, without spaces.`,
      };
    }
    config.demoPassword = demo;
  }
  return { ok: true, config };
}

const ON_OFF = ['on', 'off', 'true', 'false', '1', '0'];

async function secretFrom(
  file: string | undefined,
  variable: string | undefined,
  flag: string,
  warnings: string[],
): Promise<{ ok: true; value?: string } | { ok: false; message: string }> {
  if (file === undefined) return { ok: true, ...(variable ? { value: variable } : {}) };
  try {
    const text = await readFile(file, 'utf8');
    const mode = (await stat(file)).mode;
    if ((mode & 0o077) !== 0) {
      warnings.push(`${file} (${flag}) can be read by others than its owner: chmod 600 ${file}`);
    }
    return { ok: true, value: text.replace(/\r?\n$/, '') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      message: `${flag} ${file} could not be read${code === 'ENOENT' ? ': there is no such file' : ` (${code ?? 'error'})`}.`,
    };
  }
}

function splitList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function originOf(text: string): { ok: true; origin: string } | { ok: false; message: string } {
  const refusal = {
    ok: false as const,
    message: `An allowed origin is a scheme and a host, like https://admin.example.com; "${text.slice(0, 80)}" is not one.`,
  };
  try {
    const url = new URL(text);
    if (!/^https?:$/.test(url.protocol) || url.origin !== text.replace(/\/$/, '')) return refusal;
    return { ok: true, origin: url.origin };
  } catch {
    return refusal;
  }
}
