/**
 * An e-mail address shown as the phone is (`138****5678`): enough for its owner to recognise it, not
 * enough to read it off a shared screen — the first character or two of the name, then the domain.
 */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf('@');
  if (at < 1) return email === '' ? '' : '****';
  const name = email.slice(0, at);
  return `${name.slice(0, name.length > 3 ? 2 : 1)}****${email.slice(at)}`;
};
