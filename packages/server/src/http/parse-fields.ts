/**
 * Checks a body or query against its route's field list before any service runs: types, lengths,
 * the §5 rule a field names, integers within their column and text without control characters.
 * Failures are catalogue errors (E_1 with the rule's number), never 500s: nothing a database would
 * refuse (NUL, a number past its column) gets as far as a query. An e-mail field (the `email` rule)
 * comes out in its one spelling (email-address.ts): every service counts, stores, looks up and
 * sends to that.
 */
import {
  ClientCode,
  type FieldSpec,
  type Fields,
  hasControlCharacters,
  INT_COLUMN,
  type RuleName,
  serverCheck,
} from '@edupass/protocol';
import { canonicalEmail, invisibleInEmail, unreadableDomain } from '../email-address.ts';
import { type ApiError, invalidRequest, ruleError } from '../errors.ts';

const MAX_ARRAY = 100;

const typeOk = (spec: FieldSpec, value: unknown): boolean => {
  switch (spec.type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer[]':
      return Array.isArray(value) && value.every((v) => Number.isSafeInteger(v));
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && v.length <= 256);
    case 'any':
      return true;
  }
};

const fieldError = (name: string, spec: FieldSpec, value: unknown): ApiError => {
  if (spec.rule) {
    const failure = serverCheck(spec.rule, value);
    if (failure) return ruleError(failure);
  }
  return value === undefined
    ? invalidRequest(`Missing field "${name}".`)
    : invalidRequest(
        `Field "${name}" must be ${spec.type === 'integer[]' ? 'an array of integers' : `a ${spec.type}`}.`,
      );
};

const integersOf = (spec: FieldSpec, value: unknown): number[] =>
  spec.type === 'integer' ? [value as number] : spec.type === 'integer[]' ? (value as number[]) : [];

/** The first integer outside the field's bounds (a 32-bit column unless the field names wider ones). */
/**
 * Integer rules whose column is wider than 32 bits, bounded here rather than in the route table so
 * the browser SDKs do not carry the bounds. A birthday is unix seconds in a 64-bit column: years
 * 1653 to 2286, so birthdays before 1901 and after 2038 fit.
 */
const RULE_RANGES: Partial<Record<RuleName, { min: number; max: number }>> = {
  birthday: { min: -1e10, max: 1e10 },
};

/** The bounds an integer field's values must keep: its own, its rule's, or a 32-bit column's. */
export const integerBounds = (spec: FieldSpec): { min: number; max: number } => {
  const bounds = (spec.rule && RULE_RANGES[spec.rule]) ?? INT_COLUMN;
  return { min: spec.min ?? bounds.min, max: spec.max ?? bounds.max };
};

const outOfRange = (spec: FieldSpec, value: unknown): string | undefined => {
  const { min, max } = integerBounds(spec);
  return integersOf(spec, value).some((n) => n < min || n > max) ? `from ${min} to ${max}` : undefined;
};

/** An e-mail in its one spelling; E_1 when its domain is none a mail library would read as one. */
const emailSpelling = (value: string): string =>
  canonicalEmail(value) ??
  (() => {
    throw ruleError({ code: ClientCode.INVALID_EMAIL, message: unreadableDomain(value) });
  })();

const MAX_DEPTH = 32;

/** Whether any text in the value (strings, object keys, at any depth) holds a control character. */
const holdsControl = (value: unknown, multiline: boolean, depth = 0): boolean => {
  if (typeof value === 'string') return hasControlCharacters(value, multiline);
  if (typeof value !== 'object' || value === null) return false;
  // Deeper than any field needs: refused like a control character rather than walked.
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(value)) return value.some((item) => holdsControl(item, multiline, depth + 1));
  return Object.entries(value).some(
    ([key, item]) => hasControlCharacters(key) || holdsControl(item, multiline, depth + 1),
  );
};

/** Numbers as query strings and paths write them: canonical decimal only (no `0x0b`, `1.1e1`, `+11`, `011`). */
const DECIMAL = { integer: /^-?(0|[1-9]\d*)$/, number: /^-?(0|[1-9]\d*)(\.\d+)?$/ } as const;

/** Query strings and paths carry text: numbers are read from it when the field asks for one, else it stays text (E_1). */
const fromQuery = (spec: FieldSpec, value: unknown) =>
  (spec.type === 'integer' || spec.type === 'number') && typeof value === 'string' && DECIMAL[spec.type].test(value)
    ? Number(value)
    : value;

export const parseFields = (
  fields: Fields | undefined,
  input: unknown,
  { strict = false, fromQueryString = false } = {},
): Record<string, unknown> => {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) throw invalidRequest('The body must be a JSON object.');
  const source = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(fields ?? {})) {
    const raw = fromQueryString ? fromQuery(spec, source[name]) : source[name];
    if (raw === undefined || raw === null) {
      if (spec.required) throw fieldError(name, spec, undefined);
      continue;
    }
    if (!typeOk(spec, raw)) throw fieldError(name, spec, raw);
    const size = typeof raw === 'string' || Array.isArray(raw) ? raw.length : 0;
    const limit = Array.isArray(raw) ? Math.min(spec.maxLength ?? MAX_ARRAY, MAX_ARRAY) : spec.maxLength;
    if (limit !== undefined && size > limit) throw invalidRequest(`Field "${name}" is too long (at most ${limit}).`);
    if (spec.rule) {
      const invisible = spec.rule === 'email' && typeof raw === 'string' ? invisibleInEmail(raw) : undefined;
      if (invisible) throw ruleError({ code: ClientCode.INVALID_EMAIL, message: invisible });
      const failure = serverCheck(spec.rule, raw);
      if (failure) throw ruleError(failure);
    }
    const range = outOfRange(spec, raw);
    if (range) {
      throw invalidRequest(
        `Field "${name}" must ${spec.type === 'integer' ? 'be an integer' : 'hold integers'} ${range}.`,
      );
    }
    if (holdsControl(raw, spec.multiline ?? false)) {
      throw invalidRequest(`Field "${name}" must not contain control characters.`);
    }
    out[name] = spec.rule === 'email' && typeof raw === 'string' ? emailSpelling(raw) : raw;
  }
  if (strict) {
    const unknown = Object.keys(source).find((key) => !(fields && Object.hasOwn(fields, key)));
    if (unknown !== undefined) throw invalidRequest(`Unknown field "${unknown}".`);
  }
  return out;
};
