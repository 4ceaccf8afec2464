/**
 * Answer schemas: each value is the JSON schema of an answer (the API docs' response schema, and what
 * the server's tests check real answers against) and carries the TypeScript type of that answer, read
 * with {@link Answer}. One definition gives both, so the documented shape and the type cannot drift.
 *
 *   const agreement = object({ id: integer(), title: text() }, { url: text() });
 *   type Agreement = Answer<typeof agreement>; // { id: number; title: string; url?: string }
 *
 * The schemas describe; they never reshape: the server sends answers as JSON.stringify writes them
 * (app.ts sets a serializer that ignores them), so a field a schema lacks is still sent, and the
 * answer check in the tests is what catches the gap.
 */

declare const answerType: unique symbol;

/** A JSON schema whose valid values have type `T`. */
export type Schema<T> = { readonly [keyword: string]: unknown } & { readonly [answerType]?: T };

/** The type of the values a schema describes. */
export type Answer<S> = S extends { readonly [answerType]?: infer T } ? T : never;

type Props = Record<string, Schema<unknown>>;
type Flat<T> = { [K in keyof T]: T[K] } & {};
type ObjectOf<R extends Props, O extends Props> = Flat<
  { -readonly [K in keyof R]: Answer<R[K]> } & { -readonly [K in keyof O]?: Answer<O[K]> }
>;

/* @__NO_SIDE_EFFECTS__ */
const schema = <T>(json: Record<string, unknown>): Schema<T> => json;

/* @__NO_SIDE_EFFECTS__ */
export const text = () => schema<string>({ type: 'string' });
/* @__NO_SIDE_EFFECTS__ */
export const integer = () => schema<number>({ type: 'integer' });
/* @__NO_SIDE_EFFECTS__ */
export const number = () => schema<number>({ type: 'number' });
/* @__NO_SIDE_EFFECTS__ */
export const boolean = () => schema<boolean>({ type: 'boolean' });
/** Any JSON value (what a client sent and gets back as it was). */
/* @__NO_SIDE_EFFECTS__ */
export const anything = () => schema<unknown>({});

/** One of the listed values (all strings, or all numbers). */
/* @__NO_SIDE_EFFECTS__ */
export const oneOf = <const V extends readonly (string | number)[]>(...values: V) =>
  schema<V[number]>({ type: typeof values[0] === 'string' ? 'string' : 'number', enum: values });

/* @__NO_SIDE_EFFECTS__ */
export const list = <S extends Schema<unknown>>(item: S) => schema<Answer<S>[]>({ type: 'array', items: item });

/**
 * An object with these fields always there, and the `optional` ones when they apply. No `required`
 * when none is always there: OpenAPI 3.0's schema object refuses an empty list.
 */
/* @__NO_SIDE_EFFECTS__ */
export const object = <const R extends Props, const O extends Props = Record<never, never>>(fields: R, optional?: O) =>
  schema<ObjectOf<R, O>>({
    type: 'object',
    properties: { ...fields, ...optional },
    ...(Object.keys(fields).length > 0 ? { required: Object.keys(fields) } : {}),
  });

/** An object keyed by any name, each value of one schema. */
/* @__NO_SIDE_EFFECTS__ */
export const record = <S extends Schema<unknown>>(value: S) =>
  schema<Record<string, Answer<S>>>({ type: 'object', additionalProperties: value });

/** The value or null (OpenAPI 3.0's `nullable`, which ajv also reads). */
/* @__NO_SIDE_EFFECTS__ */
export const nullable = <S extends Schema<unknown>>(value: S) =>
  schema<Answer<S> | null>({
    ...value,
    nullable: true,
    ...(Array.isArray(value.enum) ? { enum: [...value.enum, null] } : {}),
  });

/** Either shape (a sign-in answers a session, or a ticket to finish it with). */
/* @__NO_SIDE_EFFECTS__ */
export const either = <A extends Schema<unknown>, B extends Schema<unknown>>(a: A, b: B) =>
  schema<Answer<A> | Answer<B>>({ anyOf: [a, b] });

/** The answer of a call that answers 204 with no body (`type: 'null'`: the API docs show no content). */
export const NO_CONTENT = schema<void>({ type: 'null', description: 'No content' });
