/**
 * A provider's answer on whether the settings that point at it work. `detail` names the variables
 * and, when not ok, says how to fix them; it never carries a secret's value.
 */
export interface SettingsCheck {
  ok: boolean;
  detail: string;
}
