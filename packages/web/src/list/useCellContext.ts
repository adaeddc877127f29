import { type Field, findEntity, type Model } from '@ninefold/model';
import { useMemo } from 'react';
import { usePlainLinks } from '../app/router';
import type { ApiRecord } from '../data/data-provider';
import { useExtension } from '../extension/ExtensionContext';
import { fieldOverride } from '../extension/field-overrides';
import { openableDetailRoute } from '../fields/reference-access';
import { machineFor, TONE_COLORS } from '../fields/state-tone';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import type { CellContext, CellOverride, ReferenceColumn, StateBadge } from './cell-content';
import { useReferenceNames } from './useReferenceNames';

/**
 * What every cell of a table needs besides its value, worked out once per table rather than once per
 * cell: the language's words and formatters, each state column's badge colours, each reference column's
 * detail route for this role, the names behind the page's references, and how its links are followed.
 */
export function useCellContext(
  model: Model,
  entity: string,
  columns: Field[],
  records: ApiRecord[],
): CellContext {
  const { t, tn, format } = useI18n();
  const session = useSession();
  const names = useReferenceNames(model, columns, records);
  const links = usePlainLinks();
  const extension = useExtension();

  const text = useMemo(
    () => ({
      model,
      format,
      yes: t('list.yes'),
      no: t('list.no'),
      items: (count: number) => tn('list.items', count),
    }),
    [model, format, t, tn],
  );
  const tones = useMemo(() => {
    const byField = new Map<string, ReadonlyMap<string, StateBadge>>();
    for (const field of columns) {
      if (field.kind !== 'enum') continue;
      const machine = machineFor(model, entity, field.name);
      if (!machine) continue;
      byField.set(
        field.name,
        new Map(
          machine.states.map((state) => [
            state.name,
            { color: TONE_COLORS[state.tone ?? 'neutral'], label: state.label },
          ]),
        ),
      );
    }
    return byField;
  }, [model, entity, columns]);
  const references = useMemo(() => {
    const byField = new Map<string, ReferenceColumn>();
    for (const field of columns) {
      if (field.kind !== 'reference') continue;
      const target = findEntity(model, field.entity);
      // A role that may not open the referenced record gets its name without a link.
      const route = openableDetailRoute(model, session, field.entity);
      byField.set(field.name, { key: target?.key ?? 'id', display: target?.display, route });
    }
    return byField;
  }, [model, columns, session]);

  const overrides = useMemo(() => {
    const byField = new Map<string, CellOverride>();
    if (!__NINEFOLD_EXTENSION__) return byField;
    for (const field of columns) {
      const found = fieldOverride(extension, entity || undefined, field, 'display');
      if (found)
        byField.set(field.name, {
          Display: found.override,
          entity,
          what: `display of ${entity}.${field.name}`,
        });
    }
    return byField;
  }, [extension, entity, columns]);

  return useMemo(
    () => ({ text, tones, references, names, links, overrides }),
    [text, tones, references, names, links, overrides],
  );
}
