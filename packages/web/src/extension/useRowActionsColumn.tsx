import type { Entity, ListScreen } from '@ninefold/model';
import { type ReactNode, useEffect, useState } from 'react';
import type { PathValues } from '../data/data-provider';
import type { RowActionsColumnOptions } from '../list/ListTable';

type RecordExtrasModule = typeof import('./RecordExtras');

let loading: Promise<RecordExtrasModule> | undefined;
let loaded: RecordExtrasModule | undefined;

/**
 * The code of the buttons on records: a chunk of its own, which only a list or a page with some loads.
 * A list that is the first screen asks for it while the client boots (main.tsx).
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
  /** The list's body, with the column of row actions for its table once that column is here. */
  render(column: RowActionsColumnOptions | undefined): ReactNode;
}

/**
 * A list's body with its row actions (`RowActionsColumn`, with the code of the buttons on records), once
 * that code is here: in the first render when it came beside the first page, so the rows are drawn once,
 * with their buttons. Only this much is in every list's code.
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
  return module ? <module.RowActionsColumn {...props} /> : props.render(undefined);
}
