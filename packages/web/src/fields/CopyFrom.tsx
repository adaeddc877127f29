import { type Field, findEntity } from '@ninefold/model';
import { useEffect, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
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
  const { getValues, setValue } = useFormContext();
  const [reference = '', from = ''] = (field.copyFrom ?? '').split('.').map((part) => part.trim());
  // `lines.0.unitPrice` copies from `lines.0.product`; a top-level field from a top-level reference.
  const referenceName = `${name.slice(0, name.lastIndexOf('.') + 1)}${reference}`;
  const chosen = useWatch({ name: referenceName }) as unknown;
  const previous = useRef(chosen);
  const via = findEntity(model, owner)?.fields.find((candidate) => candidate.name === reference);
  useEffect(() => {
    if (chosen === previous.current) return;
    previous.current = chosen;
    if (via?.kind !== 'reference' || typeof chosen !== 'string' || chosen === '') return;
    let current = true;
    // What the person types while the record is read wins over the copy.
    const before = getValues(name) as unknown;
    referenceReaderFor(data, model)
      .read(via.entity, chosen)
      .then(
        (record) => {
          const value = record[from];
          if (!current || value === undefined || value === null || getValues(name) !== before) return;
          setValue(name, toFormValue(model, field, value, { defaults: false }), { shouldDirty: true });
        },
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [chosen, via, from, name, field, model, data, getValues, setValue]);
  return null;
}
