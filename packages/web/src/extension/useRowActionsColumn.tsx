import type { Entity, ListScreen } from '@ninefold/spec';
import { useEffect, useState } from 'react';
import type { PathValues } from '../data/data-provider';
import type { RowActionsColumnOptions } from '../list/ListTable';

type RecordExtrasModule = typeof import('./RecordExtras');

let loading: Promise<RecordExtrasModule> | undefined;
let loaded: RecordExtrasModule | undefined;

/**
 * The code of the buttons on records: a chunk of its own, which only a list or a page with some loads.
 * A list that is the first screen asks for it beside its first page (`prefetch`).
 */
export function loadRecordExtras(): Promise<RecordExtrasModule> {
  loading ??= import('./RecordExtras').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

export interface RowActionsControllerProps {
  screen: ListScreen;
  entity: Entity;
  /** The list's parents: a nested record's calls need them. */
  path: PathValues;
  /** Receives the column of row actions for the list's table, and undefined when it goes. */
  onColumn(column: RowActionsColumnOptions | undefined): void;
}

/**
 * A list's row actions (`RowActionsColumn`, with the code of the buttons on records), once that code is
 * here: at once when it came beside the first page. Only this much is in every list's code.
 */
export function RowActionsController(props: RowActionsControllerProps) {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    let live = true;
    // Without the code the rows have no buttons; the console says why.
    if (!module) loadRecordExtras().then((next) => live && setModule(next), console.error);
    return () => {
      live = false;
    };
  }, [module]);
  return module ? <module.RowActionsColumn {...props} /> : null;
}
