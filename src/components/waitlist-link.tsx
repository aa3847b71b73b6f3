import type { MouseEvent, ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { WAITLIST_ANCHOR_ID } from '#src/config/constants.ts';
import { ROUTE_PATHS } from '#src/config/site.ts';
import { scrollToElementId } from '#src/lib/scroll.ts';

type WaitlistLinkProps = { className?: string; children: ReactNode; onNavigate?: () => void };

/** Link to the home waitlist; on the home page it scrolls there without navigating. */
export function WaitlistLink({ className, children, onNavigate }: WaitlistLinkProps) {
  const location = useLocation();
  const onHome = location.pathname === ROUTE_PATHS.home;
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onNavigate?.();
    if (onHome && scrollToElementId(WAITLIST_ANCHOR_ID)) event.preventDefault();
  };
  return (
    <Link
      className={className}
      discover="none"
      to={`${ROUTE_PATHS.home}#${WAITLIST_ANCHOR_ID}`}
      onClick={handleClick}
    >
      {children}
    </Link>
  );
}
