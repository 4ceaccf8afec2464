/**
 * Captcha vendor keys: the environment's, overlaid field by field by those operators set in the
 * console. They are read from the database on every use, so every server process agrees at once.
 * Secrets are sealed at rest (sealed-values.ts) and write-only: answers say whether each is set and
 * from where, never its value.
 */
import type { CaptchaKeySource, CaptchaVendorState } from '@edupass/protocol';
import {
  configuredVendor,
  isHttpUrl,
  VENDOR_FIELDS,
  VENDOR_NAMES,
  type VendorConfigs,
  type VendorField,
  type VendorName,
  vendorFields,
} from '../../config/captcha-config.ts';
import type { Context } from '../../context.ts';
import { invalidRequest } from '../../errors.ts';
import { deleteVendorKeys, findVendorKeys, listProviders, putVendorKeys } from '../../store/captcha/captcha.ts';
import { seal, unseal } from '../security/sealed-values.ts';

/** The field a vendor's page widget starts with; the rule service hands it out as `appid`. */
const APPID_FIELD: { [V in VendorName]: keyof VendorConfigs[V] } = {
  GEETEST: 'id',
  TENCENT: 'appId',
  NETEASE: 'captchaId',
  NEXTDATA: 'organization',
  ALIYUN: 'prefix',
};

const MAX_VALUE = 512;
const MAX_URL = 1024;

interface ResolvedField {
  name: string;
  spec: VendorField;
  value: string | undefined;
  source: CaptchaKeySource | null;
  /** Set in the console, but it does not open: sealed under a keyring since reset. */
  unreadable: boolean;
}

type StoredRow = { vendor: string; field: string; value: string };

export const isVendorName = (value: unknown): value is VendorName =>
  typeof value === 'string' && (VENDOR_NAMES as string[]).includes(value);

const sealName = (vendor: VendorName, field: string) => `captcha-vendor:${vendor}:${field}`;

/** Every field of the vendor with the value in effect: console, then environment, then default. */
const resolve = (ctx: Context, vendor: VendorName, rows: StoredRow[]): ResolvedField[] => {
  const stored = new Map(rows.filter((row) => row.vendor === vendor).map((row) => [row.field, row.value]));
  const environment: Record<string, string | undefined> = {
    ...ctx.config.captcha.vendorEnvironment[vendor],
    ...configuredVendor(ctx.config.captcha, vendor),
  };
  return vendorFields(vendor).map(([name, spec]) => {
    const raw = stored.get(name);
    const fromConsole = raw !== undefined && spec.secret ? unseal(ctx.keys.sealing, raw, sealName(vendor, name)) : raw;
    const unreadable = raw !== undefined && fromConsole === undefined;
    if (fromConsole !== undefined) return { name, spec, value: fromConsole, source: 'console', unreadable };
    const value = environment[name] ?? spec.default;
    const source = value === undefined ? null : value === spec.default ? 'default' : 'environment';
    return { name, spec, value, source, unreadable };
  });
};

const warnUnreadable = (ctx: Context, vendor: VendorName, fields: ResolvedField[]) => {
  const unreadable = fields.filter((f) => f.unreadable).map((f) => f.name);
  if (unreadable.length > 0) {
    ctx.logger.warn(
      { vendor, fields: unreadable },
      'console-set captcha keys cannot be read (the keyring was reset): enter them again',
    );
  }
};

const missingOf = (fields: ResolvedField[]) => fields.filter((f) => f.value === undefined);

/** Names a vendor's missing fields with the variables that would also set them. */
export const describeMissing = (fields: { name: string; spec: VendorField }[]) =>
  fields.map((f) => `${f.name} (${f.spec.env})`).join(', ');

/** Each field of the vendor as it is now. */
export const vendorFieldsInEffect = async (ctx: Context, vendor: VendorName) => {
  const fields = resolve(ctx, vendor, await findVendorKeys(ctx.db, vendor));
  warnUnreadable(ctx, vendor, fields);
  return fields;
};

/** The vendor's settings in effect when every field is set, else undefined (not configured). */
export const vendorSettings = async <V extends VendorName>(ctx: Context, vendor: V) => {
  const fields = await vendorFieldsInEffect(ctx, vendor);
  if (missingOf(fields).length > 0) return undefined;
  return Object.fromEntries(fields.map((f) => [f.name, f.value])) as unknown as VendorConfigs[V];
};

export const appidOf = <V extends VendorName>(vendor: V, settings: VendorConfigs[V]): string =>
  String(settings[APPID_FIELD[vendor]]);

/** The id the page's widget starts with, as the rule service hands it out; '' when not configured. */
export const vendorAppid = async (ctx: Context, vendor: VendorName): Promise<string> => {
  const settings = await vendorSettings(ctx, vendor);
  return settings === undefined ? '' : appidOf(vendor, settings);
};

/** What the console shows: public values, and for secrets only where they come from. */
export const vendorStates = async (ctx: Context): Promise<CaptchaVendorState[]> => {
  const rows = await findVendorKeys(ctx.db);
  return VENDOR_NAMES.map((vendor) => {
    const fields = resolve(ctx, vendor, rows);
    return {
      name: vendor,
      configured: missingOf(fields).length === 0,
      missing: missingOf(fields).map((f) => f.name),
      fields: fields.map((f) => ({
        name: f.name,
        env: f.spec.env,
        secret: f.spec.secret === true,
        url: f.spec.url === true,
        ...(f.spec.secret || f.value === undefined ? {} : { value: f.value }),
        source: f.source,
        ...(f.unreadable ? { unreadable: true } : {}),
      })),
    };
  });
};

const requireVendor = (vendor: string): VendorName => {
  if (isVendorName(vendor)) return vendor;
  throw invalidRequest(`vendor must be one of ${VENDOR_NAMES.join(', ')}.`);
};

const requireField = (vendor: VendorName, field: string): VendorField => {
  const fields: Record<string, VendorField> = VENDOR_FIELDS[vendor];
  // Own names only: `toString` and friends are not fields.
  if (Object.hasOwn(fields, field)) return fields[field] as VendorField;
  throw invalidRequest(
    `${vendor} has no field "${field}"; its fields are ${Object.keys(VENDOR_FIELDS[vendor]).join(', ')}.`,
  );
};

const checkValue = (vendor: VendorName, field: string, spec: VendorField, raw: unknown): string => {
  if (typeof raw !== 'string') throw invalidRequest(`${vendor} ${field} must be a string.`);
  const value = raw.trim();
  const max = spec.url ? MAX_URL : MAX_VALUE;
  if (value === '' || value.length > max) {
    throw invalidRequest(`${vendor} ${field} must be 1 to ${max} characters (to remove it, clear it instead).`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw invalidRequest(`${vendor} ${field} must not contain control characters.`);
  if (spec.url && !(isHttpUrl(value) && URL.canParse(value))) {
    throw invalidRequest(`${vendor} ${field} must be an http or https URL, e.g. ${spec.default}.`);
  }
  return value;
};

/**
 * The hosts each vendor documents for its verify API (and their regional names). An endpoint set in
 * the console elsewhere receives the vendor's secrets, so it must be marked custom on purpose.
 */
export const VENDOR_HOSTS: { [V in VendorName]: string[] } = {
  GEETEST: ['geetest.com'],
  TENCENT: ['tencentcloudapi.com'],
  NETEASE: ['dun.163.com', 'dun.163yun.com'],
  NEXTDATA: ['fengkongcloud.com', 'fengkongcloud.cn'],
  ALIYUN: ['aliyuncs.com'],
};

const isVendorHost = (vendor: VendorName, url: string) => {
  const host = new URL(url).hostname.toLowerCase();
  return VENDOR_HOSTS[vendor].some((domain) => host === domain || host.endsWith(`.${domain}`));
};

/**
 * Sets some of a vendor's fields over the environment's; answers the vendor, the field names set and
 * the endpoints set (for the audit log). An endpoint outside the vendor's documented hosts needs
 * `customEndpoint`; a changed endpoint needs every secret of the vendor in the same request, so keys
 * entered for one host (or set in the environment) are never sent to another.
 */
export const putVendorFields = async (
  ctx: Context,
  input: { vendor: string; values: unknown; customEndpoint?: boolean | undefined },
) => {
  const vendor = requireVendor(input.vendor);
  const values = input.values;
  if (typeof values !== 'object' || values === null || Array.isArray(values) || Object.keys(values).length === 0) {
    throw invalidRequest('values must be an object of field names to values, with at least one field.');
  }
  const checked = Object.entries(values).map(([field, raw]) => {
    const spec = requireField(vendor, field);
    return { field, spec, value: checkValue(vendor, field, spec, raw) };
  });
  const current = await vendorFieldsInEffect(ctx, vendor);
  const endpoints = checked.filter(({ spec }) => spec.url);
  for (const { field, value } of endpoints) {
    if (input.customEndpoint !== true && !isVendorHost(vendor, value)) {
      throw invalidRequest(
        `${vendor} ${field} must be on ${VENDOR_HOSTS[vendor].join(' or ')} (the vendor's documented hosts); to use another host, mark it as a custom endpoint.`,
      );
    }
  }
  const changed = endpoints.filter(({ field, value }) => current.find((f) => f.name === field)?.value !== value);
  if (changed.length > 0) {
    const secrets = vendorFields(vendor)
      .filter(([, spec]) => spec.secret)
      .map(([name]) => name);
    const missing = secrets.filter((name) => !checked.some((c) => c.field === name));
    if (missing.length > 0) {
      throw invalidRequest(
        `Changing ${vendor} ${changed.map((c) => c.field).join(', ')} sends its keys to another host: enter ${missing.join(', ')} again in the same request.`,
      );
    }
  }
  const rows = checked.map(({ field, spec, value }) => ({
    vendor,
    field,
    value: spec.secret ? seal(ctx.keys.sealing, value, sealName(vendor, field)) : value,
    updated_at: ctx.now(),
  }));
  await putVendorKeys(ctx.db, rows);
  return {
    vendor,
    fields: rows.map((row) => row.field),
    endpoints: endpoints.map(({ field, value }) => `${field}=${value}`),
  };
};

/**
 * Removes console-set fields of a vendor (all when none are named), so the environment's apply again.
 * Refused when an operator-chosen provider uses the vendor and it would be left without a key.
 */
export const removeVendorFields = async (ctx: Context, input: { vendor: string; fields?: string[] | undefined }) => {
  const vendor = requireVendor(input.vendor);
  const fields = input.fields ?? Object.keys(VENDOR_FIELDS[vendor]);
  if (fields.length === 0) throw invalidRequest('Name at least one field, or leave fields out to clear them all.');
  for (const field of fields) requireField(vendor, field);
  const remaining = (await findVendorKeys(ctx.db, vendor)).filter((row) => !fields.includes(row.field));
  const missing = missingOf(resolve(ctx, vendor, remaining));
  if (missing.length > 0) {
    const users = (await listProviders(ctx.db)).filter((row) => row.provider === vendor).map((row) => row.pid);
    if (users.length > 0) {
      throw invalidRequest(
        `${vendor} is the provider of ${users.join(', ')}; without these keys it would miss ${describeMissing(missing)}. Choose another provider first.`,
      );
    }
  }
  await deleteVendorKeys(ctx.db, vendor, fields);
  return { vendor, fields };
};
