import type { Ref } from 'preact';
import { RefusalAlert } from './refusal-alert.js';
import { type Draft, type FormField, pick, pickedIndex } from './review-form.js';
import { submitHandler } from './submit-handler.js';

// The form generated from the HUMAN type's score configs: a group of options for a CATEGORICAL
// or BOOLEAN field (keys 1–9 pick them), a one-line field for a NUMERIC one with its bounds, a
// text area for TEXT. Every control has its label; a field's problem is tied to it.

export interface VerdictFormProps {
  fields: readonly FormField[];
  draft: Draft;
  errors: Record<string, string>;
  /** The API's own refusal of the last attempt, shown as it said it. */
  refusal: { message: string; details: string[] } | null;
  busy: boolean;
  submitLabel: string;
  /** A change to the draft, applied to the latest one. */
  onDraft(change: (draft: Draft) => Draft): void;
  onSubmit(): void;
  formRef?: Ref<HTMLFormElement>;
  children?: preact.ComponentChildren;
}

export function VerdictForm(props: VerdictFormProps) {
  const { fields, draft, errors, refusal, busy } = props;
  return (
    <form
      ref={props.formRef}
      class="verdict-form"
      aria-labelledby="verdict-title"
      noValidate
      onSubmit={submitHandler(() => props.onSubmit())}
    >
      <h2 id="verdict-title">Your verdict</h2>
      {fields.map((field, index) => (
        <Field
          key={field.name}
          field={field}
          index={index}
          draft={draft}
          error={errors[field.name]}
          onDraft={props.onDraft}
        />
      ))}
      {refusal && (
        <RefusalAlert testId="refusal" details={refusal.details}>
          The API refused this verdict: {refusal.message}
        </RefusalAlert>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy} aria-keyshortcuts="Control+Enter">
          {props.submitLabel} <kbd>Ctrl+Enter</kbd>
        </button>
        {props.children}
      </div>
    </form>
  );
}

function Field(props: {
  field: FormField;
  index: number;
  draft: Draft;
  error: string | undefined;
  onDraft(change: (draft: Draft) => Draft): void;
}) {
  const { field, draft, error } = props;
  const id = `field-${field.name}`;
  const errorId = `${id}-error`;
  const problem = error && (
    <p id={errorId} class="error">
      {error}
    </p>
  );
  if (field.options.length > 0) {
    const picked = pickedIndex(draft, field);
    return (
      <fieldset
        class={`field${error ? ' invalid' : ''}`}
        data-field={field.name}
        aria-describedby={error ? errorId : undefined}
      >
        <legend>{field.label}</legend>
        <div class="options">
          {field.options.map((option, i) => (
            <label key={option} class={i === picked ? 'option picked' : 'option'}>
              <input
                type="radio"
                name={id}
                value={option}
                checked={i === picked}
                aria-invalid={error ? 'true' : undefined}
                onChange={() => props.onDraft((latest) => pick(latest, field, i))}
              />
              {i < 9 && <kbd>{i + 1}</kbd>}
              <span>{option}</span>
            </label>
          ))}
        </div>
        {problem}
      </fieldset>
    );
  }
  const entered = draft[field.name];
  const text = typeof entered === 'string' ? entered : '';
  const bounds =
    field.kind === 'NUMERIC' && (field.min !== null || field.max !== null)
      ? ` (${field.min ?? '…'} to ${field.max ?? '…'})`
      : '';
  // What a text and a number field's control share: the draft's text and the field's problem.
  const control = {
    id,
    value: text,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': error ? errorId : undefined,
    onInput: (event: { currentTarget: { value: string } }) => {
      const typed = event.currentTarget.value;
      props.onDraft((latest) => ({ ...latest, [field.name]: typed }));
    },
  };
  return (
    <div class={`field${error ? ' invalid' : ''}`} data-field={field.name}>
      <label for={id}>
        {field.label}
        {bounds}
      </label>
      {field.kind === 'TEXT' ? (
        <textarea rows={3} {...control} />
      ) : (
        <input type="text" inputMode="decimal" autoComplete="off" {...control} />
      )}
      {problem}
    </div>
  );
}

/** Moves the focus to field `index` of the form: its picked option, or its first control. */
export function focusField(form: HTMLFormElement | null, index: number): boolean {
  const fields = form ? [...form.querySelectorAll<HTMLElement>('[data-field]')] : [];
  const field = fields[Math.max(0, Math.min(fields.length - 1, index))];
  if (!field) return false;
  const control =
    field.querySelector<HTMLElement>('input:checked') ??
    field.querySelector<HTMLElement>('input, textarea');
  control?.focus();
  return control !== null;
}

/** The index of the field holding the focus, or -1. */
export function focusedField(form: HTMLFormElement | null): number {
  const fields = form ? [...form.querySelectorAll<HTMLElement>('[data-field]')] : [];
  return fields.findIndex((field) => field.contains(document.activeElement));
}
