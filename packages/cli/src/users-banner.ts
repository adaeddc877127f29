import type { ProvisionResult } from '@ninefold/server';

const SECRET_WORDS = { password: 'password', 'api-key': 'API key', token: 'access token' } as const;

/**
 * The users made at this start and how to sign in as them, for the terminal (standard output) only: it
 * is the one place their new secrets are ever shown. Empty when no user was made.
 */
export function usersBanner(result: Extract<ProvisionResult, { ok: true }>): string {
  if (result.users.length === 0) return '';
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
  if (demo.length > 0 && result.secretKind !== 'password') {
    lines.push(`  demo users, one per role, with ${what}s for this start:`);
    for (const user of demo) lines.push(`    ${user.email} (${user.role}): ${user.secret}`);
  } else if (demo.length > 0) {
    lines.push(`  ${demo.map((user) => user.email).join(', ')}`);
    lines.push(`  demo users, one per role; password for this start: ${demo[0]?.secret}`);
  }
  return `${lines.join('\n')}\n`;
}
