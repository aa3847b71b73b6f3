import { CheckIcon } from '#src/components/icons.tsx';
import { useId, type ReactNode } from 'react';
import '#src/styles/forms.css';

export type ToggleCardProps = {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** Submitted value of the checkbox. */
  value: string;
  name?: string;
  disabled?: boolean;
  className?: string;
  /** Extra data-* attributes for the checkbox (e.g. a form answer template's marker). */
  inputAttributes?: Readonly<Record<`data-${string}`, string>>;
};

/**
 * A real checkbox presented as a card. Its accessible name is the label and its description the
 * description; the selected state shows as a tick and a thicker border, not by colour alone,
 * drawn from the checkbox's own :checked state too, so a card toggles before hydration and
 * without JavaScript.
 */
export function ToggleCard({
  label,
  description,
  checked,
  onCheckedChange,
  value,
  name,
  disabled = false,
  className,
  inputAttributes,
}: ToggleCardProps) {
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const descriptionId = `${baseId}-description`;
  const classes = [
    'form-toggle-card',
    checked ? 'form-toggle-card--selected' : null,
    disabled ? 'form-toggle-card--disabled' : null,
    className,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <label className={classes}>
      <input
        {...inputAttributes}
        className="form-toggle-card__input"
        type="checkbox"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={(event) => onCheckedChange(event.target.checked)}
        aria-labelledby={labelId}
        aria-describedby={description ? descriptionId : undefined}
      />
      <span className="form-toggle-card__box" aria-hidden="true">
        <CheckIcon />
      </span>
      <span className="form-toggle-card__text">
        <span className="form-toggle-card__label" id={labelId}>
          {label}
        </span>
        {description ? (
          <span className="form-toggle-card__description" id={descriptionId}>
            {description}
          </span>
        ) : null}
      </span>
    </label>
  );
}
