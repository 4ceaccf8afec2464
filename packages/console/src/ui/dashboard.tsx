/** A dashboard screen: its title, the window picker, and what `load` answers for the chosen window. */

import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type ReactNode, useState } from 'react';
import { Loaded } from './status.tsx';
import { DEFAULT_PRODUCT, type WindowChoice, WindowPicker, windowFor } from './window-picker.tsx';

export const Dashboard = <T,>({
  title,
  withKey,
  load,
  children,
}: {
  title: string;
  withKey: boolean;
  load(choice: WindowChoice): Promise<T>;
  children(data: T, choice: WindowChoice): ReactNode;
}) => {
  const [choice, setChoice] = useState<WindowChoice>(() => ({ ...windowFor(DEFAULT_PRODUCT, '7d'), key: '' }));
  const state = useLoad(() => load(choice), [choice]);
  return (
    <>
      <h1>{title}</h1>
      <WindowPicker withKey={withKey} onApply={setChoice} />
      <Loaded state={state}>
        {(data) => (
          <div className="console-dashboard" aria-busy={state.status === 'loading'}>
            {children(data, choice)}
          </div>
        )}
      </Loaded>
    </>
  );
};
