/**
 * Keeping a text the page shows once (recovery codes, an authenticator key): copied to the clipboard
 * or saved as a .txt file. The copy tells whether it worked, so the page can say so.
 */
import { useState } from 'react';

/** `copy(text)` puts `text` on the clipboard; `copied` is which text went last (null: none, false: it failed). */
export const useCopy = () => {
  const [copied, setCopied] = useState<string | false | null>(null);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(text);
    } catch {
      // No clipboard (an old browser, or permission refused): the text stays on screen to copy by hand.
      setCopied(false);
    }
  };
  return { copy, copied };
};

/** Saves `text` as the file `name` (UTF-8, Windows line ends so Notepad shows the lines too). */
export const downloadText = (name: string, text: string) => {
  const url = URL.createObjectURL(new Blob([text.replace(/\r?\n/g, '\r\n')], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};
