/** A labelled single-line text field; the label names it for everyone, assistive technology included. */
export function TextField({
  id,
  label,
  name,
  value,
  onChange,
  autoComplete,
  required = false,
  maxLength,
  className = 'form-field',
}: {
  id: string;
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete?: string;
  required?: boolean;
  maxLength?: number;
  className?: string;
}) {
  return (
    <div className={className}>
      <label className="form-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="form-input"
        type="text"
        name={name}
        autoComplete={autoComplete}
        required={required}
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
