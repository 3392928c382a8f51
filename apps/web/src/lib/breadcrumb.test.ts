import { describe, expect, it } from 'vitest';
import { breadcrumbTrail, camelCase } from './breadcrumb';

const routes = ['overview', 'services', 'apiKeys', 'billings/overview', 'billings/buyCredits', 'contactUs'];

describe('breadcrumb', () => {
  it('camel-cases page names', () => {
    expect(camelCase('Buy Credits')).toBe('buyCredits');
    expect(camelCase('API Keys')).toBe('apiKeys');
    expect(camelCase('Contact Us')).toBe('contactUs');
  });

  it('links items under a non-clickable sub item, then shows the current page', () => {
    expect(breadcrumbTrail('a1', routes, { subItem: 'Billings', items: ['Overview'], current: 'Buy Credits' })).toEqual(
      [{ title: 'Billings' }, { title: 'Overview', href: '/account/a1/billings/overview' }, { title: 'Buy Credits' }],
    );
  });

  it('links an item with no sub item to /account/{id}/{item}', () => {
    expect(breadcrumbTrail('a1', routes, { items: ['Services'], current: 'RPC Service' })).toEqual([
      { title: 'Services', href: '/account/a1/services' },
      { title: 'RPC Service' },
    ]);
  });

  it('shows an item without a link when its camel-cased name is not a valid route', () => {
    expect(breadcrumbTrail('a1', routes, { items: ['Add Payment Cards'] })).toEqual([{ title: 'Add Payment Cards' }]);
  });

  it('shows only the current page when that is all there is', () => {
    expect(breadcrumbTrail('a1', routes, { current: 'Contact Us' })).toEqual([{ title: 'Contact Us' }]);
  });
});
