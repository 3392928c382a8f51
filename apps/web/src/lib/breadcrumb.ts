/** What a page shows after the account name in its breadcrumb (spec A §2). */
export interface CrumbTrail {
  /** A non-clickable section name, e.g. "Billings". */
  subItem?: string;
  /** Names of pages to link to, when their camel-cased name is a valid route. */
  items?: string[];
  /** The current page. */
  current?: string;
}

export interface Crumb {
  title: string;
  href?: string;
}

/** "Buy Credits" → "buyCredits", "API Keys" → "apiKeys". */
export function camelCase(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .map((word, i) => (i === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()))
    .join('');
}

/**
 * Item links point to /account/{id}/{subItem}/{item} (or /account/{id}/{item} with no sub item),
 * camel-cased, and are links only when that path is one of the valid account routes.
 */
export function breadcrumbTrail(accountId: string, validRoutes: readonly string[], trail: CrumbTrail): Crumb[] {
  const crumbs: Crumb[] = [];
  if (trail.subItem) crumbs.push({ title: trail.subItem });
  for (const item of trail.items ?? []) {
    const route = trail.subItem ? `${camelCase(trail.subItem)}/${camelCase(item)}` : camelCase(item);
    crumbs.push(
      validRoutes.includes(route) ? { title: item, href: `/account/${accountId}/${route}` } : { title: item },
    );
  }
  if (trail.current) crumbs.push({ title: trail.current });
  return crumbs;
}
