import { suggest } from '../authoring/suggest';

// The words of the Markdown convention (`docs/spec-format.md`) and how the reader matches them.

/**
 * Header and key matching: case, spaces, hyphens and underscores do not matter.
 *
 * @example
 * ```ts
 * norm('Page size'); // 'pagesize'
 * ```
 */
export function norm(name: string): string {
  return name.toLowerCase().replace(/[\s_\-?:.]+/g, '');
}

/**
 * The known name closest to a misspelt one: `suggest`, and also one swap of neighbouring letters
 * (`monye` -> `money`), which Levenshtein distance counts as two edits.
 */
export function closest(name: string, known: readonly string[]): string | undefined {
  const best = suggest(name, known);
  if (best !== undefined) return best;
  const lower = name.toLowerCase();
  for (let i = 0; i + 1 < lower.length; i++) {
    const swapped = lower.slice(0, i) + lower.charAt(i + 1) + lower.charAt(i) + lower.slice(i + 2);
    const hit = known.find((k) => k.toLowerCase() === swapped);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

export function didYouMeanWord(name: string, known: readonly string[]): string | undefined {
  const best = closest(name, known);
  return best === undefined ? undefined : `did you mean "${best}"?`;
}

/** `Page size` from `pageSize`, for messages. */
export function labelOf(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const YES = new Set(['yes', 'true', 'y', 'x', '✓', '✔']);
const NO = new Set(['no', 'false', 'n']);

/** `yes`, `x`, `✓` -> true; `no`, `n` -> false; anything else undefined. */
export function yesOrNo(text: string): boolean | undefined {
  const v = text.trim().toLowerCase();
  if (YES.has(v)) return true;
  if (NO.has(v)) return false;
  return undefined;
}

/** A JS-like number, also with group separators (`10,000`, `10_000`); otherwise undefined. */
export function readNumber(text: string): number | undefined {
  let t = text.trim();
  if (/^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(t)) t = t.replaceAll(',', '');
  else if (/^[+-]?\d+(?:_\d+)+(?:\.\d+(?:_\d+)*)?$/.test(t)) t = t.replaceAll('_', '');
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(t)) return undefined;
  const value = Number(t);
  return Number.isFinite(value) ? value : undefined;
}

/** Lowercase, with runs of spaces as one hyphen: `Sign in` -> `sign-in`. */
export function word(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, '-');
}

export const KIND_WORDS = [
  'text',
  'number',
  'integer',
  'boolean',
  'date',
  'datetime',
  'markdown',
  'money',
  'file',
  'enum',
  'reference',
  'object',
  'list',
];
/** Common words from other languages that are not kinds, with the kind meant. */
export const KIND_SYNONYMS: Record<string, string> = {
  string: 'text',
  str: 'text',
  int: 'integer',
  bool: 'boolean',
  float: 'number',
  decimal: 'number',
  double: 'number',
  timestamp: 'datetime',
  time: 'datetime',
  currency: 'money',
  price: 'money',
  image: 'file',
  select: 'enum',
  choice: 'enum',
  array: 'list of ...',
  ref: 'reference to ...',
};
/** How each kind word that takes more is written, for hints. */
export const KIND_FORMS: Record<string, string> = {
  money: 'money EUR',
  file: 'file: image/png, application/pdf',
  enum: 'enum: draft, placed, paid',
  reference: 'reference to Customer',
  ref: 'ref Customer',
  object: 'object Address',
  list: 'list of text',
};
export const SIMPLE_KINDS: Record<string, string> = {
  text: 'text',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  'date-time': 'datetime',
  'date and time': 'datetime',
  markdown: 'markdown',
};

export const RESPONSE_SHAPES = ['one', 'array', 'envelope', 'none'];
export const PAGINATION_PARAMS: Record<string, string[]> = {
  page: ['pageParam', 'sizeParam'],
  offset: ['offsetParam', 'limitParam'],
  cursor: ['cursorParam', 'sizeParam', 'nextField'],
  'link-header': ['sizeParam'],
  none: [],
};
export const ACTION_ALIASES: Record<string, string> = {
  view: 'read',
  see: 'read',
  add: 'create',
  new: 'create',
  edit: 'update',
  change: 'update',
  remove: 'delete',
};
export const ERROR_ACTION_ALIASES: Record<string, string> = {
  'try-again': 'retry',
  'reload-page': 'reload',
  'log-in': 'sign-in',
  login: 'sign-in',
  signin: 'sign-in',
  'fix-the-field': 'fix-field',
  'go-back-to-the-list': 'go-back',
};
export const SIGN_IN_KINDS: Record<string, string> = {
  none: 'none',
  password: 'password',
  apikey: 'api-key',
  basic: 'basic',
  token: 'token',
  accesstoken: 'token',
  bearer: 'token',
  bearertoken: 'token',
  oidc: 'oidc',
  openid: 'oidc',
  openidconnect: 'oidc',
  oauth: 'oauth2',
  oauth2: 'oauth2',
  oauth20: 'oauth2',
};
export const SIGN_IN_HEADINGS = new Set([
  'signin',
  'signingin',
  'authentication',
  'login',
  'loggingin',
  'signon',
]);
