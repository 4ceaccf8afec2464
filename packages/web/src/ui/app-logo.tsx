/**
 * An application's logo on the sign-in and consent screens; where there is none, or it does not load
 * (gone, blocked as plain http on an https page), the application's initials in its place, never a
 * broken picture.
 */
import { useState } from 'react';
import { avatarInitials } from './avatar-initials.ts';

/** A plain-http picture on an https page is blocked by the browser: not even tried. */
const loadable = (url: string) => url !== '' && !(window.location.protocol === 'https:' && url.startsWith('http:'));

export const AppLogo = ({ name, url }: { name: string; url: string | undefined }) => {
  const [failed, setFailed] = useState(false);
  if (url && loadable(url) && !failed) {
    return <img className="app-logo" src={url} alt="" width={48} height={48} onError={() => setFailed(true)} />;
  }
  return (
    <span className="app-logo app-logo-initials" aria-hidden="true">
      {avatarInitials(name)}
    </span>
  );
};
