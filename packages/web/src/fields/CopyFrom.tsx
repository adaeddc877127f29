import { type Field, findEntity } from '@ninefold/model';
import { useEffect } from 'react';
import { useFormContext } from 'react-hook-form';
import { useSpec } from '../app/SpecContext';
import { referenceReaderFor } from '../data/reference-reader';
import { toFormValue } from '../form/form-values';

/**
 * Fills a field from the record a reference of the same record points at, when the person chooses it
 * (point 3's `copyFrom: product.price`: an order line's unit price from its product). Only a choice made
 * in this form copies: a record opened for editing keeps what it holds. A record the role may not read,
 * or a value it lacks, copies nothing; the person types the value as before.
 */
export function CopyFrom({ field, name, owner }: { field: Field; name: string; owner: string }) {
  const { model, data } = useSpec();
  const { watch, getValues, setValue } = useFormContext();
  const [reference = '', from = ''] = (field.copyFrom ?? '').split('.').map((part) => part.trim());
  // `lines.0.unitPrice` copies from `lines.0.product`; a top-level field from a top-level reference.
  const referenceName = `${name.slice(0, name.lastIndexOf('.') + 1)}${reference}`;
  const via = findEntity(model, owner)?.fields.find((candidate) => candidate.name === reference);
  useEffect(() => {
    if (via?.kind !== 'reference') return;
    /** The copy on its way, and whether the person typed into the field since its choice. */
    let pending: { typed: boolean } | undefined;
    // The form's changes, in the order they happen. An effect that ran after the choice's render saw
    // what was typed in between as the value before the copy, and a busy page then lost it to the copy.
    const subscription = watch((_values, { name: changed, type }) => {
      // What the person types while the record is read wins over the copy.
      if (changed === name && type === 'change' && pending) pending.typed = true;
      if (changed !== referenceName) return;
      const chosen = getValues(referenceName) as unknown;
      pending = undefined;
      if (typeof chosen !== 'string' || chosen === '') return;
      const copy = { typed: false };
      pending = copy;
      referenceReaderFor(data, model)
        .read(via.entity, chosen)
        .then(
          (record) => {
            const value = record[from];
            if (pending !== copy || copy.typed || value === undefined || value === null) return;
            setValue(name, toFormValue(model, field, value, { defaults: false }), { shouldDirty: true });
          },
          () => undefined,
        );
    });
    return () => {
      pending = undefined;
      subscription.unsubscribe();
    };
  }, [via, referenceName, from, name, field, model, data, watch, getValues, setValue]);
  return null;
}
