/**
 * A file chooser in the page's words. The browser's own picker says "Choose File" / "No file chosen" in
 * the browser's language whatever the page's: here the real input stays (the keyboard, screen readers
 * and the test tools use it as any file input, by its label) but is transparent over a button and the
 * chosen file's name, both in the app's words; the whole row is a 44 px target. The apps give the
 * words and the button's class (the web client's `button secondary`, the console's `console-button`).
 */
import { type CSSProperties, useState } from 'react';

export interface FileChooserProps {
  /** The input's id, for its `<label htmlFor>`. */
  id: string;
  accept: string;
  required?: boolean;
  /** The chosen file (null: none yet), shown by name. */
  file: File | null;
  onFile(file: File | null): void;
  /** "选择文件" / "Choose a file". */
  chooseLabel: string;
  /** "未选择文件" / "No file chosen yet". */
  noFileLabel: string;
  buttonClassName: string;
  /** The app's class for quiet text (the file's name). */
  nameClassName?: string;
}

const row: CSSProperties = {
  position: 'relative',
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '0.75rem',
  minHeight: '2.75rem',
};
const input: CSSProperties = { position: 'absolute', inset: 0, width: '100%', opacity: 0, cursor: 'pointer' };
const button: CSSProperties = { minHeight: '2.75rem', display: 'inline-flex', alignItems: 'center' };
const focused: CSSProperties = { ...button, outline: '3px solid currentColor', outlineOffset: '2px' };

export const FileChooser = (props: FileChooserProps) => {
  const [focus, setFocus] = useState(false);
  return (
    <div className="file-chooser" style={row}>
      <input
        id={props.id}
        type="file"
        accept={props.accept}
        required={props.required}
        style={input}
        onFocus={(e) => setFocus(e.currentTarget.matches(':focus-visible'))}
        onBlur={() => setFocus(false)}
        onChange={(e) => props.onFile(e.target.files?.[0] ?? null)}
      />
      <span className={props.buttonClassName} style={focus ? focused : button} aria-hidden="true">
        {props.chooseLabel}
      </span>
      <span className={props.nameClassName} style={{ overflowWrap: 'anywhere' }} aria-hidden="true">
        {props.file ? props.file.name : props.noFileLabel}
      </span>
    </div>
  );
};
