/** A tab list (WAI-ARIA tabs pattern): arrow keys move between tabs, the panel follows. */
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export interface TabsProps<K extends string> {
  label: string;
  tabs: readonly { key: NoInfer<K>; label: string }[];
  selected: K;
  onSelect(key: NoInfer<K>): void;
  children: ReactNode;
}

export const Tabs = <K extends string>({ label, tabs, selected, onSelect, children }: TabsProps<K>) => {
  const id = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = (index + step + tabs.length) % tabs.length;
    const tab = tabs[next];
    if (!tab) return;
    onSelect(tab.key);
    refs.current[next]?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label={label} className="tabs">
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-${tab.key}`}
            aria-selected={tab.key === selected}
            aria-controls={`${id}-panel`}
            tabIndex={tab.key === selected ? 0 : -1}
            onClick={() => onSelect(tab.key)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${selected}`}>
        {children}
      </div>
    </>
  );
};
