import type { Model } from '@ninefold/model';
import type { ProvisionedUser, ProvisionResult } from '@ninefold/server';

const SECRET_WORDS = { password: 'password', 'api-key': 'API key', token: 'access token' } as const;

/**
 * The users made at this start and how to sign in as them, for the terminal (standard output) only: it
 * is the one place their new secrets are ever shown. Empty when no user was made.
 */
export function usersBanner(result: Extract<ProvisionResult, { ok: true }>, model?: Model): string {
  if (result.users.length === 0) return model ? noUsersHint(model) : '';
  const what = SECRET_WORDS[result.secretKind];
  const lines = ['', 'Sign in as:'];
  const demo = result.users.filter((user) => user.demo);
  for (const user of result.users.filter((candidate) => !candidate.demo)) {
    lines.push(
      user.secret === undefined
        ? `  ${user.email} (${user.role}): exists already; its ${what} is unchanged`
        : `  ${user.email} (${user.role}), ${what}: ${user.secret}`,
    );
  }
  if (demo.length > 0) lines.push(...demoLines(result, demo, what));
  return `${lines.join('\n')}\n`;
}

/**
 * The demo users: never changed once made, so their secret is shown only when this start knows it (new,
 * from NINEFOLD_DEMO_PASSWORD, or from the owner's file); otherwise the banner says how to learn it.
 */
function demoLines(
  result: Extract<ProvisionResult, { ok: true }>,
  demo: ProvisionedUser[],
  what: string,
): string[] {
  const lines: string[] = [];
  const known = demo.filter((user) => user.secret !== undefined);
  const from = demo.find((user) => user.secretFrom !== undefined)?.secretFrom;
  const where =
    from === 'environment'
      ? ' (from NINEFOLD_DEMO_PASSWORD)'
      : result.demoPasswordFile
        ? ` (kept in ${result.demoPasswordFile}, readable only by you)`
        : from === 'new'
          ? ' (new: the database is in memory)'
          : '';
  if (result.secretKind === 'password') {
    lines.push(`  ${demo.map((user) => user.email).join(', ')}`);
    if (known.length > 0)
      lines.push(`  demo users, one per role; demo password: ${known[0]?.secret}${where}`);
  } else if (known.length > 0) {
    lines.push(`  demo users, one per role, with ${what}s${where}:`);
    for (const user of known) lines.push(`    ${user.email} (${user.role}): ${user.secret}`);
  }
  if (known.length < demo.length) {
    lines.push(
      `  demo users that existed already keep the ${what} shown when they were made; set NINEFOLD_DEMO_PASSWORD to it to see it here`,
    );
  }
  if (result.demoPasswordIgnored) {
    lines.push("  NINEFOLD_DEMO_PASSWORD is not the existing demo users' password: they were left unchanged");
  }
  return lines;
}

/**
 * For a specification whose sign-in the prototype API answers itself, when this start made nobody: how
 * to get someone to sign in as, rather than a sign-in page nobody can pass. Users made at an earlier
 * start keep their secrets, which were shown then.
 */
function noUsersHint(model: Model): string {
  const kind = model.roles.shown ? model.roles.signIn.kind : 'none';
  if (kind === 'none' || kind === 'oidc' || kind === 'oauth2') return '';
  return (
    '\nNo user was made at this start (users made before keep their secrets). To sign in, start with\n' +
    '  --seed N             N records of each kind and a demo user per role, with a password printed here\n' +
    '  --user EMAIL:ROLE    a user of your own (repeatable)\n'
  );
}
