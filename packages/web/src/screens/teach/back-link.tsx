/** The way back from a screen of the teacher area (every one has it). */
import { Link } from '../../ui/link.tsx';

export const BackLink = ({ href, label }: { href: string; label: string }) => (
  <p className="teach-back">
    <Link className="teach-link" href={href}>
      ← {label}
    </Link>
  </p>
);
