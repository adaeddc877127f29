import { type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, useId } from 'react';
import '../app/plain-inputs.css';

interface FieldFrameProps {
  label: string;
  /** A line under the label, which the control is described by. */
  hint?: string | undefined;
  children(ids: { id: string; hintId: string | undefined }): ReactNode;
}

/** A label, an optional hint and the control they name, in Mantine's input wrapper's order. */
function FieldFrame({ label, hint, children }: FieldFrameProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label className="nf-field-label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <span className="nf-field-hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      <div className="nf-field-box">{children({ id, hintId })}</div>
    </div>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  label: string;
  hint?: string | undefined;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled plain input styled as a Mantine TextInput (app/plain-inputs.css). */
export function TextField({ label, hint, ...input }: TextFieldProps) {
  return (
    <FieldFrame label={label} hint={hint}>
      {({ id, hintId }) => <input id={id} className="nf-input" aria-describedby={hintId} {...input} />}
    </FieldFrame>
  );
}

export interface SelectFieldProps
  extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className' | 'children'> {
  label: string;
  options: Array<{ value: string; label: string }>;
}

/** A labelled native select styled as a Mantine NativeSelect (app/plain-inputs.css). */
export function SelectField({ label, options, ...select }: SelectFieldProps) {
  return (
    <FieldFrame label={label}>
      {({ id }) => (
        <>
          <select id={id} className="nf-input" {...select}>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          <span className="nf-select-chevron">
            <svg viewBox="0 0 15 15" fill="none" aria-hidden="true" focusable="false">
              <path
                d="M4.75 5.75 7.5 3.25l2.75 2.5M4.75 9.25l2.75 2.5 2.75-2.5"
                stroke="currentColor"
                strokeWidth="1.1"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </span>
        </>
      )}
    </FieldFrame>
  );
}
