/**
 * The run-time check of an answer against its schema (answer-schema.ts), opt-in: the console passes it
 * to `callRoute`, the test servers hold every answer they send to it. No dependency: it reads the JSON
 * schema keywords the schema builder writes (type, enum, nullable, items, properties, required,
 * additionalProperties, anyOf) and the field limits (maxLength, maxItems); others are not checked.
 */

type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface AnswerCheckOptions {
  /**
   * Objects that list their fields take no others (the tests' reading: the docs must name every field
   * sent). Off by default: a client accepts fields a newer server adds.
   */
  closed?: boolean;
}

const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : Number.isInteger(value)
        ? 'integer'
        : typeof value === 'number'
          ? 'number'
          : typeof value;

const hasType = (value: unknown, type: unknown): boolean => {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
};

/** What is wrong with `value` as an answer of `schema` (the first thing found), or undefined. */
const problemAt = (schema: unknown, value: unknown, at: string, options: AnswerCheckOptions): string | undefined => {
  if (!isObject(schema)) return undefined;
  if (value === null && schema.nullable === true) return undefined;
  if (Array.isArray(schema.anyOf)) {
    const problems = schema.anyOf.map((option) => problemAt(option, value, at, options));
    if (problems.every((problem) => problem !== undefined)) return problems.join('; or ');
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    return `${at} must be ${types.join(' or ')} (is ${typeOf(value)})`;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    return `${at} must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (typeof value === 'string' && typeof schema.maxLength === 'number' && value.length > schema.maxLength) {
    return `${at} must be at most ${schema.maxLength} characters`;
  }
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
      return `${at} must have at most ${schema.maxItems} items`;
    }
    for (const [index, item] of value.entries()) {
      const problem = problemAt(schema.items, item, `${at}[${index}]`, options);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (isObject(value)) return objectProblem(schema, value, at, options);
  return undefined;
};

const objectProblem = (
  schema: JsonSchema,
  value: JsonSchema,
  at: string,
  options: AnswerCheckOptions,
): string | undefined => {
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  for (const name of Array.isArray(schema.required) ? schema.required : []) {
    if (!Object.hasOwn(value, String(name))) return `${at} must have the field ${String(name)}`;
  }
  const extra = schema.additionalProperties;
  for (const [name, field] of Object.entries(value)) {
    const where = `${at}.${name}`;
    const listed = properties !== undefined && Object.hasOwn(properties, name);
    const problem = listed
      ? problemAt(properties[name], field, where, options)
      : isObject(extra)
        ? problemAt(extra, field, where, options)
        : extra === false || (options.closed === true && extra === undefined && properties !== undefined)
          ? `${where} is not in the schema`
          : undefined;
    if (problem !== undefined) return problem;
  }
  return undefined;
};

/** What is wrong with `value` as an answer of `schema`, or undefined when it is one. */
export const answerProblem = (schema: unknown, value: unknown, options: AnswerCheckOptions = {}): string | undefined =>
  problemAt(schema, value, 'answer', options);
