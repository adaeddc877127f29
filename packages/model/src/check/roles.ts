import { didYouMean } from '../authoring/suggest';
import { exhaustiveSwitchError } from '../exhaustive';
import type { PathSegment } from '../issues';
import { CRUD_ACTIONS, type Entity, SIGN_IN_KINDS, type SignInKind } from '../model';
import { type Context, checkCel, isRecord, list, refer, referField, report, shown, text } from './context';

// The checks of point 6 (roles and permissions). check/index.ts runs them in point order over one shared Context.

export function checkRoles(context: Context): void {
  const roles = shown(context.model.roles);
  if (!roles) return;

  if (isRecord(roles.signIn)) checkSignIn(context, roles.signIn);

  const seen = new Set<string>();
  let visitor: string | undefined;
  for (const role of list(roles.roles)) {
    const name = isRecord(role) ? text(role.name) : undefined;
    if (name === undefined) continue;
    if (seen.has(name)) {
      report(
        context,
        'duplicate-name',
        ['roles', 'roles', name],
        `Role "${name}" is defined twice in point 6 (roles and permissions). Rename one of them.`,
      );
    }
    seen.add(name);
    if (isRecord(role)) checkRoleHome(context, name, role.home);
    if (isRecord(role) && role.managesPeople === true) checkManagesPeople(context, name, role, roles.signIn);
    if (isRecord(role) && role.signedOut === true) {
      if (visitor === undefined) visitor = name;
      else
        report(
          context,
          'invalid-value',
          ['roles', 'roles', name, 'signedOut'],
          `Roles "${visitor}" and "${name}" are both for people who have not signed in (point 6); only one ` +
            `role can be, since nothing tells such people apart. Keep one.`,
        );
    }
  }

  const grants = new Set<string>();
  for (const grant of list(roles.grants)) {
    if (!isRecord(grant)) continue;
    const roleName = text(grant.role);
    const entityName = text(grant.entity);
    if (roleName === undefined || entityName === undefined) continue;
    const base: PathSegment[] = ['roles', 'roles', roleName, 'can', entityName];
    const owner = `the grant of role "${roleName}" on "${entityName}" (point 6)`;
    const key = `${roleName}\u0000${entityName}`;
    if (grants.has(key)) {
      report(context, 'duplicate-name', base, `${owner} is given twice. Merge the two into one.`);
      continue;
    }
    grants.add(key);
    refer(context, 'role', roleName, base, owner);
    const entity = refer<Entity>(context, 'entity', entityName, base, owner);
    for (const action of list(grant.actions)) {
      if (CRUD_ACTIONS.some((known) => known === action)) continue;
      report(
        context,
        'invalid-value',
        [...base, 'actions'],
        `${owner} allows action "${String(action)}", which is not an action. Use ${CRUD_ACTIONS.join(', ')} or all.`,
        { hint: typeof action === 'string' ? didYouMean(action, CRUD_ACTIONS) : undefined },
      );
    }
    checkGrantOffered(context, grant, roleName, entityName, base, owner);
    for (const field of list(grant.hidden)) referField(context, entity, field, [...base, 'hidden'], owner);
    for (const field of list(grant.readOnly))
      referField(context, entity, field, [...base, 'readOnly'], owner);
    if (isRecord(grant.hiddenWhile)) {
      for (const field of list(grant.hiddenWhile.fields))
        referField(context, entity, field, [...base, 'hiddenWhile', 'fields'], owner);
      checkCel(
        context,
        grant.hiddenWhile.when,
        [...base, 'hiddenWhile', 'when'],
        `the condition under which ${owner} hides fields`,
        { entity: entityName, variables: roleName === visitor ? ['record'] : ['record', 'user'] },
        true,
      );
    }
    const isVisitor = roleName === visitor;
    if (isVisitor) checkVisitorActions(context, grant, roleName, entityName, base);
    checkCel(
      context,
      grant.where,
      [...base, 'where'],
      isVisitor
        ? `the condition of ${owner}, a role for people not signed in (so with no user to read)`
        : `the condition of ${owner}`,
      { entity: entityName, variables: isVisitor ? ['record'] : ['record', 'user'] },
      true,
    );
  }
}

/**
 * The role of people not signed in may only read: a change needs someone who answers for it, and the API
 * refuses it anyway ("Sign in to …"). A grant of more is the author expecting what will not happen.
 */
function checkVisitorActions(
  context: Context,
  grant: Record<string, unknown>,
  role: string,
  entity: string,
  base: PathSegment[],
): void {
  const writes = list(grant.actions).filter((action) => action !== 'read' && typeof action === 'string');
  if (writes.length === 0) return;
  report(
    context,
    'invalid-value',
    [...base, 'actions'],
    `Role "${role}" is for people who have not signed in, who may only read (point 6), but its grant on ` +
      `"${entity}" also allows ${writes.join(', ')}. Keep only read, and give the rest to a role people sign in for.`,
  );
}

/** A role's own home is a screen of point 2 that the role may open: else it lands on "Not allowed". */
function checkRoleHome(context: Context, role: string, home: unknown): void {
  const path: PathSegment[] = ['roles', 'roles', role, 'home'];
  const owner = `the home of role "${role}" (point 6)`;
  const screen = refer<Record<string, unknown>>(context, 'screen', home, path, owner);
  if (!isRecord(screen) || !Array.isArray(screen.roles) || screen.roles.includes(role)) return;
  report(
    context,
    'invalid-value',
    path,
    `${owner} is screen "${String(home)}", which point 2 opens only to ${screen.roles.map((name) => `"${String(name)}"`).join(', ')}: ` +
      `the role would land on "Not allowed". Add "${role}" to the screen's roles, or choose another home.`,
  );
}

/**
 * A grant the client never offers: the role may create or change records in the API, but every form of
 * point 2 for that names other roles. The client and the API would then disagree on what the role may
 * do, unseen; say so, and let the author choose which is meant.
 */
export function checkGrantOffered(
  context: Context,
  grant: Record<string, unknown>,
  role: string,
  entity: string,
  base: PathSegment[],
  owner: string,
): void {
  const screens = shown(context.model.screens);
  if (!screens) return;
  const actions = list(grant.actions);
  for (const [action, kind] of [
    ['create', 'create'],
    ['update', 'edit'],
  ] as const) {
    if (!actions.includes(action)) continue;
    const forms = list(screens.items).filter(
      (screen): screen is Record<string, unknown> =>
        isRecord(screen) && screen.kind === kind && screen.entity === entity,
    );
    const closed = (screen: Record<string, unknown>) =>
      Array.isArray(screen.roles) && !screen.roles.includes(role);
    if (forms.length === 0 || !forms.every(closed)) continue;
    report(
      context,
      'unoffered-grant',
      [...base, 'actions'],
      `${owner} lets it ${action} records, but every ${kind} screen of "${entity}" in point 2 is for other ` +
        `roles: the API allows what the client never offers. Add "${role}" to the roles of ${kind === 'edit' ? 'an' : 'a'} ${kind} screen, or ` +
        `take ${action} from the grant.`,
      { severity: 'warning' },
    );
  }
}

/**
 * Only people who signed in can manage people, and only where the prototype API keeps them itself: with
 * a provider's sign-in, people and their roles come from the provider.
 */
function checkManagesPeople(
  context: Context,
  name: string,
  role: Record<string, unknown>,
  signIn: unknown,
): void {
  const path: PathSegment[] = ['roles', 'roles', name, 'managesPeople'];
  if (role.signedOut === true) {
    report(
      context,
      'invalid-value',
      path,
      `Role "${name}" is for people who have not signed in (point 6), so it cannot manage people. ` +
        'Give managing people to a role that signs in.',
    );
    return;
  }
  const kind = isRecord(signIn) ? signIn.kind : undefined;
  if (kind === 'password' || kind === 'basic') return;
  report(
    context,
    'invalid-value',
    path,
    `Role "${name}" manages people, but point 6 signs in with ${String(kind ?? 'nothing')}: only a password ` +
      'sign-in keeps its people here to invite, reset and deactivate. With a provider, they are managed there.',
    { severity: 'warning' },
  );
}

export function checkSignIn(context: Context, signIn: Record<string, unknown>): void {
  const kind = SIGN_IN_KINDS.find((known) => known === signIn.kind);
  if (kind === undefined) {
    report(
      context,
      'invalid-value',
      ['roles', 'signIn', 'kind'],
      `Sign-in (point 6) has kind "${String(signIn.kind)}", which is not a way to sign in. Use one of: ` +
        `${SIGN_IN_KINDS.join(', ')}.`,
      { hint: typeof signIn.kind === 'string' ? didYouMean(signIn.kind, SIGN_IN_KINDS) : undefined },
    );
    return;
  }
  checkSignInOfKind(context, signIn, kind);
}

export function checkSignInOfKind(context: Context, signIn: Record<string, unknown>, kind: SignInKind): void {
  switch (kind) {
    case 'password':
      refer(context, 'call', signIn.call, ['roles', 'signIn', 'call'], 'sign-in (point 6)');
      return;
    case 'none':
    case 'api-key':
    case 'basic':
    case 'token':
    case 'oidc':
    case 'oauth2':
      return;
    default:
      exhaustiveSwitchError(kind);
  }
}
