/** A text input that offers known values (a datalist) and still takes any other. */
import type { InputHTMLAttributes } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'list' | 'value' | 'onChange'> & {
  id: string;
  value: string;
  onValue(next: string): void;
  suggestions: readonly string[];
};

export const SuggestInput = ({ id, value, onValue, suggestions, ...input }: Props) => (
  <>
    <input {...input} id={id} list={`${id}-suggestions`} value={value} onChange={(e) => onValue(e.target.value)} />
    <datalist id={`${id}-suggestions`}>
      {suggestions.map((s) => (
        <option key={s} value={s} />
      ))}
    </datalist>
  </>
);
