/**
 * One spelling per mailbox. A mail library hands an address's domain to the WHATWG host parser
 * (`url.domainToASCII`: UTS-46 mapping, so full-width letters and dots become ASCII, soft hyphens and
 * other ignored characters drop out, an internationalised domain becomes punycode), and mails the
 * domain it answers: `victim@ｅxample.com`, `victim@EXAMPLE.com.` and `victim@example.com` are one
 * mailbox. Every e-mail the server is sent is taken in this one spelling (http/parse-fields.ts) before
 * it is a limit's key, stored, looked up or sent to, so no spelling starts a new count or a second
 * account for the mailbox. The local part is the mailbox's own and is only put in lower case (as
 * before: an address is one whatever its case).
 */
import { domainToASCII, domainToUnicode } from 'node:url';
import { checks } from '@edupass/protocol';

/** Invisible format characters (Unicode Cf: soft hyphen, zero-width space and joiners, byte-order and bidi marks). */
const FORMAT_CHARACTERS = /\p{Cf}/u;

const refusal = (value: string, why: string) => `Invalid email "${value}", ${why}.`;

/**
 * Why an address as sent cannot be taken, before the e-mail rule is checked (which refuses some of
 * these characters without saying why): it holds an invisible character, which a host parser drops
 * or refuses, so the address would be one more spelling of a mailbox. Undefined when it has none.
 */
export const invisibleInEmail = (value: string): string | undefined =>
  FORMAT_CHARACTERS.test(value)
    ? refusal(value, 'it must not contain invisible characters (a soft hyphen, a zero-width space or a joiner)')
    : undefined;

/** The refusal of an address `canonicalEmail` has no spelling for. */
export const unreadableDomain = (value: string) => refusal(value, 'its domain is not a valid domain name');

/**
 * Characters a host parser reads as something else than a domain (a path, a query, a fragment, a
 * percent-escape, an address literal's brackets): a domain holds none, and a mail library keeps them
 * away from the parser, so they are refused rather than read one way here and another way there.
 */
const NOT_IN_A_DOMAIN = /[/\\?#%[\]]/;

/**
 * The address in its one spelling: the domain as the host parser answers it (ASCII, punycode, lower
 * case, without the root's trailing dot), the local part in lower case. Undefined when the domain is
 * not one the parser reads, or the result is no longer an address the e-mail rule takes.
 */
export const canonicalEmail = (address: string): string | undefined => {
  const at = address.lastIndexOf('@');
  if (at <= 0) return undefined;
  const domain = address.slice(at + 1);
  if (NOT_IN_A_DOMAIN.test(domain)) return undefined;
  const ascii = domainToASCII(domain).replace(/\.+$/, '');
  if (ascii === '') return undefined;
  const canonical = `${address.slice(0, at).toLowerCase()}@${ascii}`;
  return checks.email(canonical) === null ? canonical : undefined;
};

/**
 * The spelling an address stored before addresses were taken canonically has when its domain is
 * internationalised (its U-labels, lower case); undefined when it has no other.
 */
export const storedBeforeCanonical = (canonical: string): string | undefined => {
  const at = canonical.lastIndexOf('@');
  const domain = canonical.slice(at + 1);
  if (!domain.split('.').some((label) => label.startsWith('xn--'))) return undefined;
  const unicode = domainToUnicode(domain);
  return unicode === '' || unicode === domain ? undefined : `${canonical.slice(0, at)}@${unicode}`;
};

/**
 * An identity that may be an e-mail (a sign-in's, a captcha ticket's): the address's one spelling
 * when it is one, else the identity as given (a phone or a username never holds `@`).
 */
export const canonicalIdentity = (identity: string): string =>
  identity.includes('@') ? (canonicalEmail(identity.trim()) ?? identity) : identity;

/**
 * An address read from a file (a roster's teacher): its one spelling when it is one, so it finds the
 * account stored under it; else as given, in lower case (it then matches no account, and the row says so).
 */
export const emailFromFile = (value: string): string => {
  const trimmed = value.trim();
  return (canonicalEmail(trimmed) ?? trimmed.toLowerCase()).slice(0, 254);
};
