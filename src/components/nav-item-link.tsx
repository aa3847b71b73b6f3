import { NavLink } from 'react-router-dom';
import { flags, type FeatureFlag } from '#src/config/flags.ts';
import { EXTERNAL_LINK_PROPS, type NavItem } from '#src/config/site.ts';

type Props = {
  item: NavItem;
  className?: string;
  onNavigate?: () => void;
};

/** Renders a nav entry: internal routes via the router (marked current), external ones in a new tab. */
export function NavItemLink({ item, className, onNavigate }: Props) {
  if (item.kind === 'external') {
    return (
      <a className={className} href={item.href} {...EXTERNAL_LINK_PROPS} onClick={onNavigate}>
        {item.label}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    );
  }
  return (
    <NavLink className={className} to={item.to} discover="none" end onClick={onNavigate}>
      {item.label}
    </NavLink>
  );
}

/** Drops the links to routes this build does not serve (the schools page, when its flag is off). */
export function visibleNavItems(items: readonly NavItem[], schoolsPageOn: boolean): NavItem[] {
  const flagsOn: Readonly<Record<FeatureFlag, boolean>> = { ...flags, SCHOOLS_PAGE: schoolsPageOn };
  return items.filter((item) => item.kind !== 'route' || !item.onlyWith || flagsOn[item.onlyWith] === true);
}
