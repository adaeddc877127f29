import type { SpecFormat } from '@ninefold/model';

/** The text being written, kept in the browser between visits: a closed tab or a crash loses nothing. */
export interface PlaygroundDraft {
  text: string;
  format: SpecFormat;
  savedAt: number;
}

const KEY = 'ninefold:playground:draft';

export function readDraft(
  storage: Pick<Storage, 'getItem'> | undefined = safeStorage(),
): PlaygroundDraft | undefined {
  try {
    const raw = storage?.getItem(KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<PlaygroundDraft>;
    if (typeof parsed.text !== 'string') return undefined;
    const format = parsed.format === 'yaml' || parsed.format === 'json' ? parsed.format : 'markdown';
    return { text: parsed.text, format, savedAt: typeof parsed.savedAt === 'number' ? parsed.savedAt : 0 };
  } catch {
    return undefined;
  }
}

/** Answers false when the browser would not keep it (storage full or disabled): the page then says so. */
export function writeDraft(
  draft: Omit<PlaygroundDraft, 'savedAt'>,
  storage: Pick<Storage, 'setItem'> | undefined = safeStorage(),
): boolean {
  try {
    storage?.setItem(KEY, JSON.stringify({ ...draft, savedAt: Date.now() }));
    return storage !== undefined;
  } catch {
    return false;
  }
}

function safeStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}
