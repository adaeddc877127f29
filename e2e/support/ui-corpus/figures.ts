import type { DocumentFigures } from './drive';

/** The goals, as fractions: what the UI corpus test holds the client to. */
export const GOALS = {
  screensWithoutPageErrors: 1,
  listsWithRows: 0.95,
  listsOpeningRecord: 0.9,
  createFormsSaved: 0.9,
} as const;

export interface Ratio {
  count: number;
  of: number;
  /** count / of, rounded to 3 places; 1 when there is nothing to count. */
  ratio: number;
}

export interface CorpusFigures {
  screensWithoutPageErrors: Ratio;
  listsWithRows: Ratio;
  /** Among lists with rows whose document has a detail call. */
  listsOpeningRecord: Ratio;
  /** Among create forms that opened. */
  createFormsSaved: Ratio;
  createFormsOpened: Ratio;
}

const ratio = (count: number, of: number): Ratio => ({
  count,
  of,
  ratio: of === 0 ? 1 : Math.round((count / of) * 1000) / 1000,
});

/** The corpus's figures: the sums over its documents, so a large document weighs by its screens. */
export function corpusFigures(documents: DocumentFigures[]): CorpusFigures {
  const sum = (key: keyof Omit<DocumentFigures, 'document' | 'failures' | 'accessibility'>) =>
    documents.reduce((total, figures) => total + figures[key], 0);
  return {
    screensWithoutPageErrors: ratio(sum('screensWithoutPageErrors'), sum('screens')),
    listsWithRows: ratio(sum('listsWithRows'), sum('lists')),
    listsOpeningRecord: ratio(sum('listsOpeningRecord'), sum('listsWithDetailCall')),
    createFormsOpened: ratio(sum('createFormsOpened'), sum('createForms')),
    createFormsSaved: ratio(sum('createFormsSaved'), sum('createFormsOpened')),
  };
}

/** The goals a set of figures misses, each as `listsWithRows 0.8 < 0.95`: empty when all are met. */
export function missedGoals(figures: CorpusFigures): string[] {
  return (Object.keys(GOALS) as Array<keyof typeof GOALS>)
    .filter((key) => figures[key].ratio < GOALS[key])
    .map((key) => `${key} ${figures[key].ratio} (${figures[key].count}/${figures[key].of}) < ${GOALS[key]}`);
}
