import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { EXTERNAL_LINK_PROPS, type NavItem } from '@/config/site';

type Props = {
  item: NavItem;
  className?: string;
  onNavigate?: () => void;
  children?: ReactNode;
};

/** Renders a nav entry: internal routes via the router (marked current), external ones in a new tab. */
export function NavItemLink({ item, className, onNavigate, children }: Props) {
  if (item.kind === 'external') {
    return (
      <a className={className} href={item.href} {...EXTERNAL_LINK_PROPS} onClick={onNavigate}>
        {children ?? item.label}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    );
  }
  return (
    <NavLink className={className} to={item.to} end onClick={onNavigate}>
      {children ?? item.label}
    </NavLink>
  );
}

/** Drops the schools entries when the schools page is off. */
export function visibleNavItems(items: readonly NavItem[], schoolsPageOn: boolean): NavItem[] {
  return items.filter((item) => schoolsPageOn || !(item.kind === 'route' && item.requiresSchools));
}
