/**
 * Schools' own sign-in systems: every connector (CAS, an institution of a SAML federation, an OAuth2 /
 * OpenID Connect education platform) with its school and state, a new one for a school, its attribute
 * settings and mapping edited (its code and kind stay; a blank client secret keeps the sealed one), and
 * a connector switched off or on after a confirmation naming it. The client secret of a platform is sent
 * once and never shown again (the server keeps it sealed). Its words in both of the console's languages
 * are kept here, with the screen (words.ts); each kind's settings in its own module (cas.ts, saml.ts,
 * oidc.ts).
 */
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useState } from 'react';
import {
  listSchoolConnectors,
  listSchools,
  type SchoolConnector,
  setSchoolConnectorEnabled,
} from '../../api/edu-api.ts';
import { useConsoleText } from '../../i18n/i18n.ts';
import { ConsoleConfirm } from '../../ui/confirm.tsx';
import { Loaded } from '../../ui/status.tsx';
import { AddForm } from './add-form.tsx';
import { ConnectorTable, type EditForm } from './list.tsx';
import { MappingForm } from './mapping-form.tsx';
import { SettingsForm } from './settings-form.tsx';
import { useWords } from './words.ts';

/** The question before a connector is switched off or on, naming it. */
const SwitchConfirm = (props: { connector: SchoolConnector; cancel: () => void; confirm: () => void }) => {
  const w = useWords();
  const { enabled, name, code } = props.connector;
  return (
    <ConsoleConfirm
      title={w(enabled ? 'confirmDisable' : 'confirmEnable', { name, code })}
      body={w(enabled ? 'confirmDisableBody' : 'confirmEnableBody')}
      confirmLabel={w(enabled ? 'disable' : 'enable')}
      onCancel={props.cancel}
      onConfirm={props.confirm}
    />
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
  const [open, setOpen] = useState<{ form: EditForm; connector: SchoolConnector } | undefined>();
  const done = (message: string | null) => {
    if (message) setNotice(message);
    connectors.reload();
  };
  const closed = (message: string | null) => {
    setOpen(undefined);
    done(message);
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
          <ConnectorTable
            rows={rows}
            schoolName={schoolName}
            open={(form, connector) => setOpen({ form, connector })}
            ask={setAsking}
          />
        )}
      </Loaded>
      {asking ? (
        <SwitchConfirm
          connector={asking}
          cancel={() => setAsking(undefined)}
          confirm={() => {
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
