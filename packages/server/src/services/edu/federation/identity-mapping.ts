/**
 * A connector's attribute mapping: which upstream value identifies the person, which attribute says
 * teacher or pupil (affiliation → role), which names the classes and which the display name. Stored
 * with the connector as JSON; missing keys take the defaults below, which read the attributes CAS
 * servers commonly release (eduPerson's affiliation, a class attribute).
 */
import { invalidRequest } from '../../../errors.ts';

export interface AttributeMapping {
  /** `user`: the CAS user (the sign-in name); else the attribute holding a stable id. */
  subject: string;
  role_attribute: string;
  teacher_values: string[];
  pupil_values: string[];
  /** Attribute whose values are class names of the school; '' for none. */
  class_attribute: string;
  /** Attribute with the person's name; '' for none. */
  name_attribute: string;
}

export const DEFAULT_MAPPING: AttributeMapping = {
  subject: 'user',
  role_attribute: 'affiliation',
  teacher_values: ['faculty', 'staff', 'teacher', 'employee', '教师', '教职工'],
  pupil_values: ['student', 'pupil', '学生'],
  class_attribute: 'class',
  name_attribute: 'displayName',
};

/**
 * A SAML federation's defaults (CARSI releases eduPerson attributes): the subject is the opaque
 * pairwise id (services/edu/federation/saml/sign-in.ts fills `opaque-id` from pairwise-id, eduPersonTargetedID
 * or a persistent NameID), the role comes from eduPersonAffiliation, and no class attribute is assumed.
 */
export const SAML_DEFAULT_MAPPING: AttributeMapping = {
  ...DEFAULT_MAPPING,
  subject: 'opaque-id',
  role_attribute: 'eduPersonAffiliation',
  class_attribute: '',
};

const NAME = /^[A-Za-z_][\w.:-]{0,79}$/;

const attributeName = (value: unknown, key: string, allowEmpty: boolean): string => {
  if (typeof value === 'string' && ((allowEmpty && value === '') || NAME.test(value))) return value;
  throw invalidRequest(`mapping.${key} must be an attribute name${allowEmpty ? " or ''" : ''}.`);
};

const values = (value: unknown, key: string): string[] => {
  if (Array.isArray(value) && value.length <= 32 && value.every((v) => typeof v === 'string' && v.length <= 64)) {
    return value.map((v: string) => v.trim().toLowerCase()).filter((v) => v !== '');
  }
  throw invalidRequest(`mapping.${key} must be a list of up to 32 values.`);
};

/** A mapping as an operator wrote it, checked, with defaults for what it leaves out. */
export const readMapping = (input: unknown, defaults: AttributeMapping = DEFAULT_MAPPING): AttributeMapping => {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalidRequest('mapping must be an object.');
  }
  const given = { ...defaults, ...(input as Partial<Record<keyof AttributeMapping, unknown>>) };
  const unknown = Object.keys(input).find((key) => !(key in DEFAULT_MAPPING));
  if (unknown !== undefined) throw invalidRequest(`mapping.${unknown} is not a mapping key.`);
  return {
    subject: attributeName(given.subject, 'subject', false),
    role_attribute: attributeName(given.role_attribute, 'role_attribute', false),
    teacher_values: values(given.teacher_values, 'teacher_values'),
    pupil_values: values(given.pupil_values, 'pupil_values'),
    class_attribute: attributeName(given.class_attribute, 'class_attribute', true),
    name_attribute: attributeName(given.name_attribute, 'name_attribute', true),
  };
};

export interface UpstreamIdentity {
  /** The CAS user (or the SAML NameID). */
  user: string;
  attributes: Record<string, string[]>;
}

export interface MappedIdentity {
  /** The stable upstream id; only its HMAC is stored. */
  subject: string;
  /** Teacher wins over pupil when both match (a teaching assistant who studies too). */
  role: 'teacher' | 'pupil' | undefined;
  classNames: string[];
  displayName: string | undefined;
}

const first = (identity: UpstreamIdentity, name: string) =>
  name === '' ? undefined : identity.attributes[name]?.find((v) => v !== '');

export const mapIdentity = (mapping: AttributeMapping, identity: UpstreamIdentity): MappedIdentity | undefined => {
  const subject = mapping.subject === 'user' ? identity.user : first(identity, mapping.subject);
  if (subject === undefined || subject === '') return undefined;
  const roles = (identity.attributes[mapping.role_attribute] ?? []).map((v) => v.trim().toLowerCase());
  const role = roles.some((r) => mapping.teacher_values.includes(r))
    ? 'teacher'
    : roles.some((r) => mapping.pupil_values.includes(r))
      ? 'pupil'
      : undefined;
  const classNames =
    mapping.class_attribute === ''
      ? []
      : [...new Set((identity.attributes[mapping.class_attribute] ?? []).map((v) => v.trim()).filter((v) => v))];
  return { subject, role, classNames, displayName: first(identity, mapping.name_attribute)?.slice(0, 32) };
};
