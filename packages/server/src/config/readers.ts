/**
 * The one set of environment readers every configuration module uses: each reads a variable, falls
 * back to its default when unset or empty, and records a problem (with its fix) for a bad value, so
 * `loadConfig` reports every problem at once.
 */
export type Env = Record<string, string | undefined>;

export const readers = (env: Env, problems: string[]) => {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(
        `${name}="${raw}" must be a whole number from ${min} to ${max}. Fix: set ${name}=${fallback} or unset it.`,
      );
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name}="${raw}" must be true or false. Fix: set ${name}=${fallback} or unset it.`);
    return fallback;
  };
  const str = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const url = (name: string, fallback: string, protocols: string[]): string => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      problems.push(`${name}="${raw}" must be a ${protocols.join(' or ')} URL. Fix: e.g. ${name}=${fallback}`);
      return fallback;
    }
  };
  return { int, bool, str, url };
};

export type Readers = ReturnType<typeof readers>;
