/**
 * Schools' own sign-in systems: every connector (CAS, an institution of a SAML federation, an OAuth2 /
 * OpenID Connect education platform) with its school and state, a new one for a school, its attribute
 * settings and mapping edited (its code and kind stay; a blank client secret keeps the sealed one), and a connector switched off or on after a confirmation naming it. The client
 * secret of a platform is sent once and never shown again (the server keeps it sealed). Its words in
 * both of the console's languages are kept here, with the screen.
 */
import { OIDC_PRESET_NAMES, SCHOOL_CONNECTOR_KINDS, type SchoolConnectorKind } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useEffect, useState } from 'react';
import {
  addSchoolConnector,
  editSchoolConnector,
  listSchoolConnectors,
  listSchools,
  type SchoolConnector,
  setSchoolConnectorEnabled,
  setSchoolConnectorMapping,
} from '../api/edu-api.ts';
import { type ConsoleLocale, screenWords, useConsoleText } from '../i18n/i18n.ts';
import { ConsoleConfirm } from '../ui/confirm.tsx';
import { Loaded } from '../ui/status.tsx';
import { Card, DataTable } from '../ui/table.tsx';

const WORDS = {
  en: {
    title: 'School sign-in',
    lead: "Schools' own sign-in systems: pupils and teachers sign in with their school account and land in the school, as teacher or pupil by the attribute mapping. Only an opaque hash of their school id is kept.",
    name: 'Connector',
    code: 'Code',
    school: 'School',
    kind: 'Kind',
    state: 'State',
    on: 'On',
    off: 'Off',
    actions: 'Actions',
    none: 'No school has a sign-in connector yet.',
    'kind.cas': 'CAS',
    'kind.saml': 'SAML federation (CARSI)',
    'kind.oidc': 'OAuth2 / OpenID Connect platform',
    disable: 'Switch off',
    enable: 'Switch on',
    confirmDisable: 'Switch off {name} ({code})?',
    confirmDisableBody: 'Sign-ins through this connector are refused until it is switched on again. Accounts stay.',
    confirmEnable: 'Switch on {name} ({code})?',
    confirmEnableBody: 'Pupils and teachers can sign in through this connector again.',
    switchedOff: '{name} is switched off.',
    switchedOn: '{name} is switched on.',
    editMapping: 'Edit mapping',
    editMappingOf: 'Edit the mapping of {name}',
    mappingTitle: 'Attribute mapping of {name}',
    'map.subject': 'Identifier attribute (a stable, opaque id; "user" = the CAS user)',
    'map.role_attribute': 'Role attribute (affiliation)',
    'map.teacher_values': 'Values meaning teacher (comma separated)',
    'map.pupil_values': 'Values meaning pupil (comma separated)',
    'map.class_attribute': 'Class attribute (empty: none)',
    'map.name_attribute': 'Name attribute (empty: none)',
    saveMapping: 'Save the mapping',
    cancel: 'Cancel',
    mappingSaved: 'The mapping of {name} is saved.',
    redirect: 'Register this redirect URI with the platform: {name}',
    logoutUri: 'and this back-channel logout URI, so signing out there signs out here: {name}',
    postLogoutUri: 'and, to sign out there from here, this post-logout redirect URI: {name}',
    add: 'Add a connector',
    addSchool: 'School',
    chooseSchool: 'Choose a school',
    addKind: 'Kind',
    addCode: 'Code (2–40 lower-case letters, digits or dashes; in its addresses)',
    addName: 'Name pupils search for',
    'set.server_url': 'CAS server prefix URL (https)',
    'set.version': 'CAS protocol version',
    'set.metadata_url': "Federation metadata URL (the signed aggregate's address)",
    'set.federation_cert': "Federation's signing certificate (PEM)",
    'set.idp_entity_id': "Institution's entity ID",
    'set.preset': 'Preset',
    'preset.oidc': 'Generic OpenID Connect (discovery)',
    'preset.oauth2': 'Generic OAuth2 (userinfo)',
    'preset.smartedu': 'National smart education platform (values to check with the platform)',
    'preset.edu-cloud': 'Provincial or city education cloud (values to check with the platform)',
    'set.issuer': 'Issuer URL (OpenID Connect)',
    'set.client_id': 'Client ID',
    'set.client_secret': 'Client secret (kept sealed, never shown again)',
    'set.scopes': 'Scopes (space separated; empty: the preset’s)',
    'set.authorization_endpoint': 'Authorization endpoint (OAuth2; optional for OIDC)',
    'set.token_endpoint': 'Token endpoint (OAuth2; optional for OIDC)',
    'set.userinfo_endpoint': 'Userinfo endpoint (OAuth2; optional for OIDC)',
    submit: 'Add the connector',
    added: 'Added {name}. Check its mapping before pupils sign in.',
    editSettings: 'Edit settings',
    editSettingsOf: 'Edit the settings of {name}',
    settingsTitle: 'Settings of {name} ({code})',
    settingsLead: 'Its code and kind stay, and so do the accounts linked through it.',
    'set.refresh_minutes': 'Refresh the federation metadata every (minutes)',
    'set.client_secret.keep': 'New client secret (leave empty to keep the current one)',
    saveSettings: 'Save the settings',
    settingsSaved: 'The settings of {name} are saved.',
    'set.force_sign_in': 'Ask for the school password at every sign-in (for shared computers)',
    'set.force_sign_in.help':
      'Otherwise a pupil still signed in at the school’s system signs in here without the password, so on a shared computer the next pupil becomes the last one. Plain OAuth2 platforms cannot do this.',
    'set.sign_out_at_school': 'Signing out here signs out of the school’s system too',
    'set.sign_out_at_school.help':
      'An OpenID Connect platform must first register the post-logout redirect URI shown in the list; a SAML federation must have EduPass’s metadata again (it carries the key that signs the request). Plain OAuth2 platforms cannot do this.',
  },
  'zh-CN': {
    title: '学校统一身份认证',
    lead: '学校自己的统一身份认证：学生和教师用学校账号登录，进入所在学校，并按属性映射成为教师或学生。只保存学校账号编号的不透明哈希。',
    name: '连接',
    code: '代码',
    school: '学校',
    kind: '类型',
    state: '状态',
    on: '已启用',
    off: '已停用',
    actions: '操作',
    none: '还没有学校配置统一身份认证连接。',
    'kind.cas': 'CAS',
    'kind.saml': 'SAML 联盟（CARSI）',
    'kind.oidc': 'OAuth2 / OpenID Connect 平台',
    disable: '停用',
    enable: '启用',
    confirmDisable: '停用 {name}（{code}）？',
    confirmDisableBody: '停用后，通过此连接的登录都会被拒绝，直到再次启用。已有账号保留。',
    confirmEnable: '启用 {name}（{code}）？',
    confirmEnableBody: '学生和教师可以再次通过此连接登录。',
    switchedOff: '已停用 {name}。',
    switchedOn: '已启用 {name}。',
    editMapping: '编辑映射',
    editMappingOf: '编辑 {name} 的映射',
    mappingTitle: '{name} 的属性映射',
    'map.subject': '标识属性（稳定、不透明的编号；“user”即 CAS 用户名）',
    'map.role_attribute': '身份属性（affiliation）',
    'map.teacher_values': '表示教师的取值（逗号分隔）',
    'map.pupil_values': '表示学生的取值（逗号分隔）',
    'map.class_attribute': '班级属性（留空：不读取）',
    'map.name_attribute': '姓名属性（留空：不读取）',
    saveMapping: '保存映射',
    cancel: '取消',
    mappingSaved: '已保存 {name} 的映射。',
    redirect: '请在平台登记此回调地址：{name}',
    logoutUri: '并登记此后端注销地址，在平台退出时这里也随之退出：{name}',
    postLogoutUri: '如需在这里退出时同时退出平台，请登记此退出后回调地址：{name}',
    add: '添加连接',
    addSchool: '学校',
    chooseSchool: '选择学校',
    addKind: '类型',
    addCode: '代码（2–40 位小写字母、数字或连字符，用于地址中）',
    addName: '学生搜索时看到的名称',
    'set.server_url': 'CAS 服务器地址前缀（https）',
    'set.version': 'CAS 协议版本',
    'set.metadata_url': '联盟元数据地址（签名的聚合元数据）',
    'set.federation_cert': '联盟的签名证书（PEM）',
    'set.idp_entity_id': '机构的 entity ID',
    'set.preset': '预设',
    'preset.oidc': '通用 OpenID Connect（自动发现）',
    'preset.oauth2': '通用 OAuth2（userinfo）',
    'preset.smartedu': '国家智慧教育平台（取值需与平台核对）',
    'preset.edu-cloud': '省市教育云平台（取值需与平台核对）',
    'set.issuer': 'Issuer 地址（OpenID Connect）',
    'set.client_id': '客户端 ID',
    'set.client_secret': '客户端密钥（加密保存，不再显示）',
    'set.scopes': '授权范围（空格分隔；留空用预设）',
    'set.authorization_endpoint': '授权地址（OAuth2 必填；OIDC 可选）',
    'set.token_endpoint': '令牌地址（OAuth2 必填；OIDC 可选）',
    'set.userinfo_endpoint': '用户信息地址（OAuth2 必填；OIDC 可选）',
    submit: '添加连接',
    added: '已添加 {name}。学生登录前请检查其映射。',
    editSettings: '编辑设置',
    editSettingsOf: '编辑 {name} 的设置',
    settingsTitle: '{name}（{code}）的设置',
    settingsLead: '代码和类型不变，通过它关联的账号也都保留。',
    'set.refresh_minutes': '联盟元数据刷新间隔（分钟）',
    'set.client_secret.keep': '新的客户端密钥（留空则保留当前密钥）',
    saveSettings: '保存设置',
    settingsSaved: '已保存 {name} 的设置。',
    'set.force_sign_in': '每次登录都要输入学校账号的密码（适合共用电脑）',
    'set.force_sign_in.help':
      '不勾选时，上一位学生如果还没退出学校系统，下一位学生不用密码就会以上一位的身份登录。普通 OAuth2 平台不支持这一项。',
    'set.sign_out_at_school': '在这里退出时，同时退出学校系统',
    'set.sign_out_at_school.help':
      'OpenID Connect 平台需先登记列表中显示的退出后回调地址；SAML 联盟需重新登记 EduPass 的元数据（其中有签署退出请求的密钥）。普通 OAuth2 平台不支持这一项。',
  },
} as const satisfies Record<ConsoleLocale, Record<string, string>>;

type Word = keyof (typeof WORDS)['en'];

const useWords = screenWords(WORDS);

const KINDS = SCHOOL_CONNECTOR_KINDS;
type Kind = SchoolConnectorKind;
const PRESETS = OIDC_PRESET_NAMES;

/** The settings fields of each kind, in the names the server reads. */
const SETTINGS: Record<Kind, readonly string[]> = {
  cas: ['server_url'],
  saml: ['metadata_url', 'federation_cert', 'idp_entity_id'],
  oidc: [
    'issuer',
    'client_id',
    'client_secret',
    'scopes',
    'authorization_endpoint',
    'token_endpoint',
    'userinfo_endpoint',
  ],
};
const OPTIONAL = new Set(['scopes', 'authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'issuer']);

const MAPPING_KEYS = [
  'subject',
  'role_attribute',
  'teacher_values',
  'pupil_values',
  'class_attribute',
  'name_attribute',
] as const;
type MappingKey = (typeof MAPPING_KEYS)[number];
const LISTS = new Set<MappingKey>(['teacher_values', 'pupil_values']);

/** A mapping as the form's text fields: lists joined with commas. */
const mappingText = (mapping: unknown): Record<MappingKey, string> => {
  const record = (typeof mapping === 'object' && mapping !== null ? mapping : {}) as Record<string, unknown>;
  const one = (key: MappingKey) => {
    const value = record[key];
    return Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';
  };
  return Object.fromEntries(MAPPING_KEYS.map((key) => [key, one(key)])) as Record<MappingKey, string>;
};

const settingOf = (connector: SchoolConnector, key: string) => {
  const settings = connector.settings as Record<string, unknown> | null;
  const value = settings?.[key];
  return typeof value === 'string' ? value : '';
};

/** One settings field: the PEM certificate in a text area, the client secret masked. */
const SettingInput = (props: {
  id: string;
  label: string;
  name: string;
  value: string;
  required: boolean;
  onChange: (value: string) => void;
}) => {
  const common = {
    id: props.id,
    value: props.value,
    required: props.required,
    onChange: (e: { target: { value: string } }) => props.onChange(e.target.value),
  };
  return (
    <div className="console-form">
      <label htmlFor={props.id}>{props.label}</label>
      {props.name === 'federation_cert' ? (
        <textarea {...common} rows={4} />
      ) : (
        <input {...common} type={props.name === 'client_secret' ? 'password' : 'text'} autoComplete="off" />
      )}
    </div>
  );
};

/** The yes-or-no settings every kind has. */
const SWITCHES = ['force_sign_in', 'sign_out_at_school'] as const;
type Switch = (typeof SWITCHES)[number];
type Switches = Record<Switch, boolean>;

const switchesOf = (connector: SchoolConnector | undefined): Switches => {
  const settings = (connector?.settings ?? {}) as Record<string, unknown>;
  return { force_sign_in: settings.force_sign_in === true, sign_out_at_school: settings.sign_out_at_school === true };
};

/** The switches as checkboxes, each with what it is for. */
const SwitchBoxes = (props: { idPrefix: string; value: Switches; onChange: (value: Switches) => void }) => {
  const w = useWords();
  return (
    <>
      {SWITCHES.map((key) => {
        const id = `${props.idPrefix}-${key.replaceAll('_', '-')}`;
        return (
          <div key={key} className="console-form">
            <label className="console-check">
              <input
                id={id}
                type="checkbox"
                checked={props.value[key]}
                aria-describedby={`${id}-help`}
                onChange={(e) => props.onChange({ ...props.value, [key]: e.target.checked })}
              />
              <span>{w(`set.${key}`)}</span>
            </label>
            <p id={`${id}-help`} className="console-muted">
              {w(`set.${key}.help`)}
            </p>
          </div>
        );
      })}
    </>
  );
};

/** An edit form's error, its save and its way back without saving. */
const EditFormEnd = (props: { error: string | null; busy: boolean; save: string; cancel: () => void }) => {
  const w = useWords();
  return (
    <>
      <FormError message={props.error} />
      <button type="submit" className="console-button" disabled={props.busy}>
        {props.save}
      </button>
      <button type="button" className="console-button console-button-quiet" onClick={props.cancel}>
        {w('cancel')}
      </button>
    </>
  );
};

/** The settings an edit can change, per kind (the add's, and a federation's refresh interval). */
const EDITABLE: Record<Kind, readonly string[]> = {
  ...SETTINGS,
  saml: [...SETTINGS.saml, 'refresh_minutes'],
};

/** A connector's stored settings as the form's text fields (the client secret empty: it is never shown). */
const settingsText = (connector: SchoolConnector, kind: Kind) => {
  const settings = (connector.settings ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    EDITABLE[kind].map((key) => {
      const value = settings[key];
      return [key, Array.isArray(value) ? value.join(' ') : value === undefined || value === null ? '' : String(value)];
    }),
  );
};

const SettingsForm = ({ connector, done }: { connector: SchoolConnector; done: (message: string | null) => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const kind = (KINDS.includes(connector.kind as Kind) ? connector.kind : 'cas') as Kind;
  const [name, setName] = useState(connector.name);
  const [form, setForm] = useState(() => settingsText(connector, kind));
  const [version, setVersion] = useState(settingOf(connector, 'version') || '3.0');
  const [switches, setSwitches] = useState(() => switchesOf(connector));
  useEffect(() => document.getElementById('settings-name')?.focus(), []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const settings: Record<string, unknown> = {};
    for (const key of EDITABLE[kind]) {
      const value = form[key]?.trim() ?? '';
      if (key === 'scopes') {
        if (value !== '') settings.scopes = value.split(/\s+/);
      } else if (key === 'refresh_minutes') {
        settings.refresh_minutes = Number(value);
      } else settings[key] = value;
    }
    if (kind === 'cas') settings.version = version;
    Object.assign(settings, switches);
    if (await action.run(() => editSchoolConnector(connector.id, name, settings))) {
      done(w('settingsSaved', { name: name.trim() }));
    }
  };
  return (
    <Card id="connector-settings" title={w('settingsTitle', { name: connector.name, code: connector.code })}>
      <p className="console-muted">{w('settingsLead')}</p>
      <form className="console-form" onSubmit={submit}>
        <SettingInput id="settings-name" label={w('addName')} name="name" value={name} required onChange={setName} />
        {kind === 'cas' ? (
          <div className="console-form">
            <label htmlFor="settings-version">{w('set.version')}</label>
            <select id="settings-version" value={version} onChange={(e) => setVersion(e.target.value)}>
              <option value="3.0">CAS 3.0</option>
              <option value="2.0">CAS 2.0</option>
            </select>
          </div>
        ) : null}
        {EDITABLE[kind].map((key) => (
          <SettingInput
            key={key}
            id={`settings-${key}`}
            label={w(key === 'client_secret' ? 'set.client_secret.keep' : (`set.${key}` as Word))}
            name={key}
            value={form[key] ?? ''}
            required={!OPTIONAL.has(key) && key !== 'client_secret'}
            onChange={(value) => setForm({ ...form, [key]: value })}
          />
        ))}
        <SwitchBoxes idPrefix="settings" value={switches} onChange={setSwitches} />
        <EditFormEnd error={action.error} busy={action.busy} save={w('saveSettings')} cancel={() => done(null)} />
      </form>
    </Card>
  );
};

const MappingForm = ({ connector, done }: { connector: SchoolConnector; done: (message: string | null) => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const [form, setForm] = useState(() => mappingText(connector.mapping));
  // The form opens below the list: its first field takes the focus, so it is seen and typed into at once.
  useEffect(() => document.getElementById('mapping-subject')?.focus(), []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const mapping = Object.fromEntries(
      MAPPING_KEYS.map((key) => [
        key,
        LISTS.has(key)
          ? form[key]
              .split(/[,，]/)
              .map((v) => v.trim())
              .filter((v) => v !== '')
          : form[key].trim(),
      ]),
    );
    if (await action.run(() => setSchoolConnectorMapping(connector.id, mapping))) {
      done(w('mappingSaved', { name: connector.name }));
    }
  };
  return (
    <Card id="connector-mapping" title={w('mappingTitle', { name: connector.name })}>
      <form className="console-form" onSubmit={submit}>
        {MAPPING_KEYS.map((key) => (
          <div key={key} className="console-form">
            <label htmlFor={`mapping-${key}`}>{w(`map.${key}`)}</label>
            <input
              id={`mapping-${key}`}
              value={form[key]}
              required={key === 'subject' || key === 'role_attribute'}
              onChange={(e) => setForm({ ...form, [key]: e.target.value })}
            />
          </div>
        ))}
        <EditFormEnd error={action.error} busy={action.busy} save={w('saveMapping')} cancel={() => done(null)} />
      </form>
    </Card>
  );
};

const AddForm = ({ added }: { added: (name: string) => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const schools = useLoad(listSchools);
  const empty = {
    school: '',
    kind: 'oidc' as Kind,
    code: '',
    name: '',
    preset: 'oidc',
    version: '3.0',
    switches: switchesOf(undefined),
  };
  const [form, setForm] = useState(empty);
  const [settings, setSettings] = useState<Record<string, string>>({});
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const given = Object.fromEntries(
      SETTINGS[form.kind].map((key) => [key, settings[key]?.trim() ?? '']).filter(([, value]) => value !== ''),
    );
    const kindSettings: Record<string, unknown> =
      form.kind === 'cas'
        ? { ...given, version: form.version }
        : form.kind === 'oidc'
          ? {
              ...given,
              preset: form.preset,
              ...(given.scopes ? { scopes: String(given.scopes).split(/\s+/) } : {}),
            }
          : given;
    let name = '';
    const ok = await action.run(async () => {
      const connector = await addSchoolConnector(Number(form.school), {
        code: form.code,
        kind: form.kind,
        name: form.name,
        settings: { ...kindSettings, ...form.switches },
      });
      name = connector.name;
    });
    if (ok) {
      setForm(empty);
      setSettings({});
      added(name);
    }
  };
  const text = (key: 'code' | 'name', label: Word) => (
    <div className="console-form">
      <label htmlFor={`connector-${key}`}>{w(label)}</label>
      <input
        id={`connector-${key}`}
        value={form[key]}
        required
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
      />
    </div>
  );
  const setting = (key: string) => (
    <SettingInput
      key={key}
      id={`connector-setting-${key}`}
      label={w(`set.${key}` as Word)}
      name={key}
      value={settings[key] ?? ''}
      required={!OPTIONAL.has(key) && !(key === 'issuer' && form.kind === 'oidc')}
      onChange={(value) => setSettings({ ...settings, [key]: value })}
    />
  );
  return (
    <Card id="connector-add" title={w('add')}>
      <form className="console-form" onSubmit={submit}>
        <Loaded state={schools}>
          {(rows) => (
            <div className="console-form">
              <label htmlFor="connector-school">{w('addSchool')}</label>
              <select
                id="connector-school"
                required
                value={form.school}
                onChange={(e) => setForm({ ...form, school: e.target.value })}
              >
                <option value="">{w('chooseSchool')}</option>
                {rows.map((school) => (
                  <option key={school.id} value={school.id}>
                    {school.name}
                  </option>
                ))}
              </select>
            </div>
          )}
        </Loaded>
        <div className="console-form">
          <label htmlFor="connector-kind">{w('addKind')}</label>
          <select
            id="connector-kind"
            value={form.kind}
            onChange={(e) => setForm({ ...form, kind: e.target.value as Kind })}
          >
            {KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {w(`kind.${kind}`)}
              </option>
            ))}
          </select>
        </div>
        {text('code', 'addCode')}
        {text('name', 'addName')}
        {form.kind === 'oidc' ? (
          <div className="console-form">
            <label htmlFor="connector-preset">{w('set.preset')}</label>
            <select
              id="connector-preset"
              value={form.preset}
              onChange={(e) => setForm({ ...form, preset: e.target.value })}
            >
              {PRESETS.map((preset) => (
                <option key={preset} value={preset}>
                  {w(`preset.${preset}`)}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {form.kind === 'cas' ? (
          <div className="console-form">
            <label htmlFor="connector-version">{w('set.version')}</label>
            <select
              id="connector-version"
              value={form.version}
              onChange={(e) => setForm({ ...form, version: e.target.value })}
            >
              <option value="3.0">CAS 3.0</option>
              <option value="2.0">CAS 2.0</option>
            </select>
          </div>
        ) : null}
        {SETTINGS[form.kind].map(setting)}
        <SwitchBoxes
          idPrefix="connector"
          value={form.switches}
          onChange={(switches) => setForm({ ...form, switches })}
        />
        <FormError message={action.error} />
        <button type="submit" className="console-button" disabled={action.busy}>
          {w('submit')}
        </button>
      </form>
    </Card>
  );
};

export const ConnectorsScreen = () => {
  const w = useWords();
  const connectors = useLoad(listSchoolConnectors);
  const schools = useLoad(listSchools);
  const switching = useAction(useConsoleText().errorText);
  const [notice, setNotice] = useState<string | null>(null);
  const [asking, setAsking] = useState<SchoolConnector | undefined>();
  /** The one edit form open below the list: a connector's settings or its mapping. */
  const [open, setOpen] = useState<{ form: 'settings' | 'mapping'; connector: SchoolConnector } | undefined>();
  const closed = (message: string | null) => {
    setOpen(undefined);
    done(message);
  };
  const opener = (form: 'settings' | 'mapping', c: SchoolConnector) => (
    <button
      type="button"
      className="console-button console-button-quiet"
      aria-label={w(form === 'settings' ? 'editSettingsOf' : 'editMappingOf', { name: c.name })}
      onClick={() => setOpen({ form, connector: c })}
    >
      {w(form === 'settings' ? 'editSettings' : 'editMapping')}
    </button>
  );
  const done = (message: string | null) => {
    if (message) setNotice(message);
    connectors.reload();
  };
  const schoolName = (id: number) => schools.data?.find((s) => s.id === id)?.name ?? `#${id}`;
  const switchOver = async (connector: SchoolConnector) => {
    const on = !connector.enabled;
    if (await switching.run(() => setSchoolConnectorEnabled(connector.id, on))) {
      done(w(on ? 'switchedOn' : 'switchedOff', { name: connector.name }));
    }
  };
  return (
    <>
      <h1>{w('title')}</h1>
      <p className="console-lead">{w('lead')}</p>
      <Notice message={notice} />
      <FormError message={switching.error} />
      <Loaded state={connectors}>
        {(rows) => (
          <DataTable
            rows={rows}
            rowKey={(c) => c.id}
            empty={w('none')}
            caption={w('title')}
            wrap
            columns={[
              {
                head: w('name'),
                rowHeader: true,
                cell: (c) => (
                  <>
                    {c.name}
                    {c.kind === 'oidc' ? (
                      <small className="console-muted console-block">
                        {w('redirect', { name: settingOf(c, 'redirect_uri') })}
                      </small>
                    ) : null}
                    {settingOf(c, 'backchannel_logout_uri') ? (
                      <small className="console-muted console-block">
                        {w('logoutUri', { name: settingOf(c, 'backchannel_logout_uri') })}
                      </small>
                    ) : null}
                    {settingOf(c, 'post_logout_redirect_uri') ? (
                      <small className="console-muted console-block">
                        {w('postLogoutUri', { name: settingOf(c, 'post_logout_redirect_uri') })}
                      </small>
                    ) : null}
                  </>
                ),
              },
              { head: w('code'), cell: (c) => c.code },
              { head: w('school'), cell: (c) => schoolName(c.school_id) },
              { head: w('kind'), cell: (c) => (KINDS.includes(c.kind as Kind) ? w(`kind.${c.kind as Kind}`) : c.kind) },
              { head: w('state'), cell: (c) => w(c.enabled ? 'on' : 'off') },
              {
                head: w('actions'),
                cell: (c) => (
                  <>
                    {opener('settings', c)}
                    {opener('mapping', c)}
                    <button type="button" className="console-button console-button-quiet" onClick={() => setAsking(c)}>
                      {w(c.enabled ? 'disable' : 'enable')}
                    </button>
                  </>
                ),
              },
            ]}
          />
        )}
      </Loaded>
      {asking ? (
        <ConsoleConfirm
          title={w(asking.enabled ? 'confirmDisable' : 'confirmEnable', { name: asking.name, code: asking.code })}
          body={w(asking.enabled ? 'confirmDisableBody' : 'confirmEnableBody')}
          confirmLabel={w(asking.enabled ? 'disable' : 'enable')}
          onCancel={() => setAsking(undefined)}
          onConfirm={() => {
            setAsking(undefined);
            void switchOver(asking);
          }}
        />
      ) : null}
      {open?.form === 'mapping' ? (
        <MappingForm key={open.connector.id} connector={open.connector} done={closed} />
      ) : null}
      {open?.form === 'settings' ? (
        <SettingsForm key={open.connector.id} connector={open.connector} done={closed} />
      ) : null}
      <AddForm added={(name) => done(w('added', { name }))} />
    </>
  );
};
