import type { ReactNode } from 'react';

/** The id of a field's error text, which its control names in `aria-describedby`. */
export const fieldErrorId = (id: string) => `${id}_help`;

interface PlainFieldProps {
  /** The control's id, which the label points at. */
  id?: string;
  label?: string;
  /** The field's error, shown under the control; null or undefined when it has none. */
  error?: string | null;
  children: ReactNode;
}

/**
 * A field drawn as antd's vertical Form.Item (label above, control, error under it in the space of
 * the item's margin), for the page that loads without antd's Form: /login (docs/performance.md).
 * The control itself gives `aria-invalid`, `aria-describedby={fieldErrorId(id)}` and its error status.
 */
export function PlainField({ id, label, error, children }: PlainFieldProps) {
  // antd's class names as well: whatever finds a form's fields and errors by them (the journeys,
  // a user's stylesheet) finds these; antd's own rules need its theme's hash class, so none applies.
  return (
    <div
      className={
        error ? 'plain-field plain-field-with-error ant-form-item ant-form-item-has-error' : 'plain-field ant-form-item'
      }
    >
      {label !== undefined && (
        <div className="plain-field-label">
          <label htmlFor={id}>{label}</label>
        </div>
      )}
      <div className="plain-field-control">
        <div className="plain-field-content">{children}</div>
      </div>
      {error ? (
        <div id={id && fieldErrorId(id)} className="plain-field-error ant-form-item-explain-error" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}
