/**
 * What stands behind children's consent, on the schools screen: the consent text guardians read (each
 * element the 2019 rules require, in both languages; each save is the next version, which new
 * consents record) and a school's agreement for the pupils its teachers create (who signed, the day,
 * the third-party applications it covers; without one, a school's new pupils under 14 wait for a
 * guardian's consent).
 */
import { CONSENT_ELEMENTS } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, Fragment, useState } from 'react';
import { getApplications } from '../api/applications-api.ts';
import {
  type ConsentText,
  endSchoolAgreement,
  getConsentText,
  recordSchoolAgreement,
  type School,
  saveConsentText,
} from '../api/edu-api.ts';
import { type ConsoleLocale, screenWords, useConsoleText } from '../i18n/i18n.ts';
import { Loaded } from '../ui/status.tsx';
import { Card } from '../ui/table.tsx';

const LANGS = ['zh-CN', 'en'] as const;

const WORDS = {
  en: {
    textTitle: 'Consent text',
    textLead:
      'What a guardian reads before consenting for a child under 14. Every element is needed in both languages; saving makes the next version, which consents given from then on record.',
    version: 'Version in use: {n}',
    'lang.zh-CN': 'Chinese',
    'lang.en': 'English',
    'element.purpose': 'Purpose',
    'element.data': 'Data collected',
    'element.storage': 'How long it is kept',
    'element.security': 'How it is protected',
    'element.refusal': 'What refusing means',
    'element.rights': 'Seeing, correcting and deleting',
    saveText: 'Save as a new version',
    textSaved: 'Saved as version {n}.',
    agreementTitle: "A school's agreement",
    agreementLead:
      "For pupils a teacher creates, the school's consent stands first. Record the agreement the school signed; a school without one has its new pupils under 14 wait for a guardian's consent.",
    school: 'School',
    choose: 'Choose a school',
    signatory: 'Who signed for the school (name and role)',
    signedOn: 'Day signed',
    record: 'Record the agreement',
    recorded: 'Recorded the agreement of {name}.',
    end: 'End the agreement of {name}',
    ended: 'Ended the agreement of {name}.',
    inForce: 'In force: {who}, {day} (text version {n})',
    noneInForce: 'No agreement: new pupils wait for a guardian.',
    applications: 'Third-party applications it covers',
    applicationsLead:
      "Until a guardian consents, a third-party application gets of a pupil only what protects them (age group, minor mode). The applications ticked here get the pupil's name, profile and class too while the agreement stands; never the phone or e-mail.",
    noApplications: 'No third-party application is registered.',
    covers: '; third-party applications covered: {n}',
  },
  'zh-CN': {
    textTitle: '监护人同意书',
    textLead:
      '不满 14 周岁的孩子的监护人在同意前阅读的文本。每一项都需要中英文；保存即成为新版本，此后的同意都记录该版本。',
    version: '当前版本：{n}',
    'lang.zh-CN': '中文',
    'lang.en': '英文',
    'element.purpose': '目的',
    'element.data': '收集的信息',
    'element.storage': '保存期限',
    'element.security': '安全措施',
    'element.refusal': '不同意的后果',
    'element.rights': '查阅、更正和删除',
    saveText: '保存为新版本',
    textSaved: '已保存为第 {n} 版。',
    agreementTitle: '学校协议',
    agreementLead:
      '教师创建的学生账号以学校的同意为先。请在此登记学校签署的协议；没有协议的学校，新建的不满 14 周岁的学生需等待监护人同意。',
    school: '学校',
    choose: '选择学校',
    signatory: '代表学校签署的人（姓名和职务）',
    signedOn: '签署日期',
    record: '登记协议',
    recorded: '已登记 {name} 的协议。',
    end: '终止 {name} 的协议',
    ended: '已终止 {name} 的协议。',
    inForce: '生效中：{who}，{day}（文本第 {n} 版）',
    noneInForce: '没有协议：新学生需等待监护人同意。',
    applications: '协议涵盖的第三方应用',
    applicationsLead:
      '监护人同意之前，第三方应用只能得到保护学生所需的信息（年龄段、未成年人模式）。在协议有效期内，这里勾选的应用还能得到学生的姓名、资料和班级，但始终得不到手机号和邮箱。',
    noApplications: '还没有登记第三方应用。',
    covers: '；涵盖的第三方应用：{n} 个',
  },
} as const satisfies Record<ConsoleLocale, Record<string, string>>;

const useWords = screenWords(WORDS);

const ConsentTextForm = ({ text, saved }: { text: ConsentText; saved: (version: number) => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const [draft, setDraft] = useState({ 'zh-CN': { ...text['zh-CN'] }, en: { ...text.en } });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.run(async () => {
      saved((await saveConsentText(draft)).version);
    });
  };
  return (
    <form className="console-form" onSubmit={submit}>
      <p>{w('version', { n: text.version })}</p>
      {LANGS.map((lang) => (
        <fieldset key={lang} lang={lang} className="console-language-text console-form">
          <legend>{w(`lang.${lang}`)}</legend>
          {CONSENT_ELEMENTS.map((element) => {
            const id = `consent-${lang}-${element}`;
            return (
              <Fragment key={element}>
                <label htmlFor={id}>{w(`element.${element}`)}</label>
                <textarea
                  id={id}
                  required
                  maxLength={2000}
                  rows={3}
                  value={draft[lang][element]}
                  onChange={(e) => setDraft({ ...draft, [lang]: { ...draft[lang], [element]: e.target.value } })}
                />
              </Fragment>
            );
          })}
        </fieldset>
      ))}
      <FormError message={action.error} />
      <button type="submit" className="console-button" disabled={action.busy}>
        {w('saveText')}
      </button>
    </form>
  );
};

export const ConsentTextCard = () => {
  const w = useWords();
  const text = useLoad(getConsentText);
  const [notice, setNotice] = useState<string | null>(null);
  const saved = (version: number) => {
    setNotice(w('textSaved', { n: version }));
    text.reload();
  };
  return (
    <Card id="consent-text" title={w('textTitle')}>
      <p className="console-lead">{w('textLead')}</p>
      <Notice message={notice} />
      <Loaded state={text}>{(loaded) => <ConsentTextForm key={loaded.version} text={loaded} saved={saved} />}</Loaded>
    </Card>
  );
};

/** The agreement in force of a school, as the schools table shows it. */
export const useAgreementText = () => {
  const w = useWords();
  return (school: School) =>
    school.agreement
      ? w('inForce', {
          who: school.agreement.signatory,
          day: school.agreement.signed_on,
          n: school.agreement.text_version,
        }) + (school.agreement.applications.length > 0 ? w('covers', { n: school.agreement.applications.length }) : '')
      : w('noneInForce');
};

export const SchoolAgreementCard = ({
  schools,
  changed,
}: {
  schools: School[];
  changed: (message: string) => void;
}) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const [form, setForm] = useState({ school: '', signatory: '', signedOn: '' });
  const [covered, setCovered] = useState<string[]>([]);
  const thirdParties = useLoad(async () => (await getApplications()).filter((app) => !app.first_party));
  const chosen = schools.find((s) => String(s.id) === form.school);
  // A new agreement replaces the one in force: start from what that one covers.
  const choose = (school: string) => {
    setForm({ ...form, school });
    setCovered(schools.find((s) => String(s.id) === school)?.agreement?.applications ?? []);
  };
  const toggle = (clientId: string) =>
    setCovered((now) => (now.includes(clientId) ? now.filter((id) => id !== clientId) : [...now, clientId]));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    const ok = await action.run(() =>
      recordSchoolAgreement(chosen.id, {
        signatory: form.signatory,
        signed_on: form.signedOn,
        applications: covered,
      }),
    );
    if (ok) {
      setForm({ school: form.school, signatory: '', signedOn: '' });
      changed(w('recorded', { name: chosen.name }));
    }
  };
  const end = async () => {
    if (chosen && (await action.run(() => endSchoolAgreement(chosen.id)))) changed(w('ended', { name: chosen.name }));
  };
  return (
    <Card id="school-agreement" title={w('agreementTitle')}>
      <p className="console-lead">{w('agreementLead')}</p>
      <form className="console-form" onSubmit={submit}>
        <label htmlFor="agreement-school">{w('school')}</label>
        <select id="agreement-school" required value={form.school} onChange={(e) => choose(e.target.value)}>
          <option value="">{w('choose')}</option>
          {schools.map((school) => (
            <option key={school.id} value={school.id}>
              {school.name}
            </option>
          ))}
        </select>
        <label htmlFor="agreement-signatory">{w('signatory')}</label>
        <input
          id="agreement-signatory"
          required
          maxLength={128}
          value={form.signatory}
          onChange={(e) => setForm({ ...form, signatory: e.target.value })}
        />
        <label htmlFor="agreement-day">{w('signedOn')}</label>
        <input
          id="agreement-day"
          type="date"
          required
          value={form.signedOn}
          onChange={(e) => setForm({ ...form, signedOn: e.target.value })}
        />
        <fieldset>
          <legend>{w('applications')}</legend>
          <p className="console-lead">{w('applicationsLead')}</p>
          <Loaded state={thirdParties}>
            {(apps) =>
              apps.length === 0 ? (
                <p>{w('noApplications')}</p>
              ) : (
                apps.map((app) => (
                  <label key={app.client_id}>
                    <input
                      type="checkbox"
                      checked={covered.includes(app.client_id)}
                      onChange={() => toggle(app.client_id)}
                    />{' '}
                    {app.name}
                  </label>
                ))
              )
            }
          </Loaded>
        </fieldset>
        <FormError message={action.error} />
        <button type="submit" className="console-button" disabled={action.busy}>
          {w('record')}
        </button>
        {chosen?.agreement ? (
          <button
            type="button"
            className="console-button console-button-quiet"
            disabled={action.busy}
            onClick={() => void end()}
          >
            {w('end', { name: chosen.name })}
          </button>
        ) : null}
      </form>
    </Card>
  );
};
