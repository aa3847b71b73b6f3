import '#src/styles/forms.css';

/**
 * A trap field for bots, named by the form's contract (`honeypot`): off screen, aria-hidden and out
 * of the tab order, so no visitor meets it. Read it with `isHoneypotFilled`.
 */
export function HoneypotField({ name, id }: { name: string; id?: string }) {
  const inputId = id ?? `${name}-field`;
  return (
    <div className="form-honeypot" aria-hidden="true">
      <label htmlFor={inputId}>Leave this field empty</label>
      <input id={inputId} type="text" name={name} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** True when the form's honeypot has a value, i.e. a bot filled it in. */
export function isHoneypotFilled(form: HTMLFormElement, name: string): boolean {
  const field = form.elements.namedItem(name);
  return field instanceof HTMLInputElement && field.value.trim() !== '';
}
