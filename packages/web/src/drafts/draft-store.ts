import type { JsonValue } from '@ninefold/model';

/** What is kept of a create or edit form between visits, until it is saved or discarded. */
export interface Draft {
  /** When it was last written, in milliseconds since the epoch. */
  savedAt: number;
  /** The form's values as the form holds them, without chosen files and without secrets. */
  values: Record<string, JsonValue>;
  /** The labels of fields whose newly chosen file could not be kept: the person must choose it again. */
  files: string[];
  /** On edit: the record as it was read when the editing began, to compute the change against. */
  base?: Record<string, JsonValue>;
  /** On edit: the version (ETag) `base` was read at, sent as `If-Match` after a restore. */
  basedOn?: string;
  /** On create: the key every attempt to save this form carries, so a retry cannot create twice. */
  idempotencyKey?: string;
  /** Who typed it (the user's id or email); absent when nobody is signed in. */
  owner?: string;
}

/** Where a draft belongs: one app (a specification against one API), one entity, one record or `new`. */
export interface DraftAddress {
  /** The product's title and the API's base: two apps served from one origin keep apart. */
  app: string;
  entity: string;
  /** The record's id, or undefined for a create form. */
  id: string | undefined;
}

/** The part of `Storage` drafts use; tests give a map, browsers `localStorage`. */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

const PREFIX = 'ninefold.draft.v1:';
/**
 * One form's draft at most this many characters of JSON: the browser's storage for the whole origin is
 * about 5 MB, shared with every other draft and the session. A bigger draft is not kept (and says so).
 */
export const MAX_DRAFT_CHARS = 200_000;
/** The most drafts kept for all apps of the origin; past it the oldest goes. */
export const MAX_DRAFTS = 40;
/** A draft older than this is not offered back, and removed when found. */
export const DRAFT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export type WriteOutcome = 'kept' | 'too-large' | 'unavailable';

/**
 * The browser's local storage of drafts, for a form to write its values into as the person types and
 * read them back when the form opens again: after a reload, a crashed tab, a night offline or a sign-in
 * in the middle. Reading never throws (storage can be disabled, full, or hold something else).
 *
 * @example
 * const drafts = createDraftStore(window.localStorage);
 * drafts.write({ app: 'Shop@/api', entity: 'Customer', id: '1' }, draft);
 * drafts.read({ app: 'Shop@/api', entity: 'Customer', id: '1' }); // the draft, or undefined
 */
export function createDraftStore(storage: DraftStorage | undefined, now: () => number = Date.now) {
  const keyOf = (address: DraftAddress) =>
    `${PREFIX}${JSON.stringify([address.app, address.entity, address.id ?? null])}`;

  const ownKeys = (): string[] => {
    if (!storage) return [];
    const keys: string[] = [];
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index);
      if (key?.startsWith(PREFIX)) keys.push(key);
    }
    return keys;
  };

  const parse = (text: string | null): Draft | undefined => {
    if (text === null) return undefined;
    try {
      return asDraft(JSON.parse(text));
    } catch {
      return undefined;
    }
  };

  const remove = (key: string) => {
    try {
      storage?.removeItem(key);
    } catch {
      // Nothing more can be done about a storage that refuses.
    }
  };

  /** The other drafts, oldest first; those past their time are removed on the way. */
  const others = (keep: string): string[] => {
    const live: Array<{ key: string; savedAt: number }> = [];
    for (const key of ownKeys()) {
      if (key === keep) continue;
      const draft = parse(safeGet(storage, key));
      if (draft && now() - draft.savedAt < DRAFT_TTL_MS) live.push({ key, savedAt: draft.savedAt });
      else remove(key);
    }
    return live.sort((a, b) => a.savedAt - b.savedAt).map(({ key }) => key);
  };

  return {
    read(address: DraftAddress): Draft | undefined {
      const key = keyOf(address);
      const draft = parse(safeGet(storage, key));
      if (draft && now() - draft.savedAt >= DRAFT_TTL_MS) {
        remove(key);
        return undefined;
      }
      return draft;
    },

    write(address: DraftAddress, draft: Draft): WriteOutcome {
      if (!storage) return 'unavailable';
      const key = keyOf(address);
      const text = JSON.stringify(draft);
      if (text.length > MAX_DRAFT_CHARS) {
        // An older, smaller draft would come back with values the person has since changed.
        remove(key);
        return 'too-large';
      }
      if (safeGet(storage, key) === null) {
        const older = others(key);
        for (const stale of older.slice(0, Math.max(0, older.length - (MAX_DRAFTS - 1)))) remove(stale);
      }
      // A full storage gives up the oldest other draft, one at a time, for the one being typed now.
      let queue: string[] | undefined;
      for (;;) {
        try {
          storage.setItem(key, text);
          return 'kept';
        } catch {
          queue ??= others(key);
          const oldest = queue.shift();
          if (oldest === undefined) return 'unavailable';
          remove(oldest);
        }
      }
    },

    remove(address: DraftAddress): void {
      remove(keyOf(address));
    },
  };
}

export type DraftStore = ReturnType<typeof createDraftStore>;

function safeGet(storage: DraftStorage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** The browser's local storage, or undefined where it is disabled (some private modes throw on access). */
export function browserStorage(): DraftStorage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** A stored value read back as a draft, or undefined when it is not one (another version, a hand edit). */
function asDraft(value: unknown): Draft | undefined {
  if (!isObject(value)) return undefined;
  const { savedAt, values, files, base, basedOn, idempotencyKey, owner } = value;
  if (typeof savedAt !== 'number' || !Number.isFinite(savedAt) || !isObject(values)) return undefined;
  return {
    savedAt,
    values: values as Record<string, JsonValue>,
    files: Array.isArray(files) ? files.filter((file): file is string => typeof file === 'string') : [],
    ...(isObject(base) ? { base: base as Record<string, JsonValue> } : {}),
    ...(typeof basedOn === 'string' ? { basedOn } : {}),
    ...(typeof idempotencyKey === 'string' ? { idempotencyKey } : {}),
    ...(typeof owner === 'string' ? { owner } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
