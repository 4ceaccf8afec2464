/** The rows of "Sign-in & security" and their paths: the list at SECURITY_PATH, each row's form below it. */
export const SECURITY_PATH = '/account/security';

export const SECURITY_ROWS = [
  'username',
  'password',
  'phone',
  'email',
  'two-step',
  'devices',
  'cards',
  'delete',
] as const;
export type SecurityRow = (typeof SECURITY_ROWS)[number];

/** The row whose form `path` opens; null for the list (or a path outside it). */
export const securityRowOf = (path: string): SecurityRow | null => {
  const rest = path.replace(/\/+$/, '').slice(SECURITY_PATH.length + 1);
  return path.startsWith(`${SECURITY_PATH}/`) && (SECURITY_ROWS as readonly string[]).includes(rest)
    ? (rest as SecurityRow)
    : null;
};

/** At or under this many unused recovery codes, the page suggests making new ones. */
export const FEW_RECOVERY_CODES = 3;
