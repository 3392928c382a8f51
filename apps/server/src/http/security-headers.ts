import { RPC_BASE_PATH } from '@ebs/contract';
import type { FastifyInstance } from 'fastify';
import { analyticsScriptUrl, type Config } from '../config.ts';

/** Where Stripe.js, its Elements frames and its 3-D Secure pages come from (Stripe's CSP guide). */
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
  img: ['https://*.stripe.com'],
};

type CspConfig = Pick<Config, 'CARD_PROVIDER' | 'APP_ENV' | 'ANALYTICS_SCRIPT_URL'>;

/**
 * The Content-Security-Policy of every answer. Scripts only from this origin (no inline script,
 * no eval); styles may be inline because antd writes its CSS-in-JS into <style> elements at run
 * time and ECharts' tooltips carry style attributes. With Stripe as the card provider, Stripe.js
 * and its frames are allowed too; the local processor needs nothing beyond this origin. In the prod
 * environment with an analytics tag, its origin may serve scripts and receive what it measures.
 */
export function contentSecurityPolicy(config: CspConfig): string {
  const stripe = config.CARD_PROVIDER === 'stripe';
  const plus = (list: string[]) => (stripe ? list : []);
  const tag = analyticsScriptUrl(config);
  const analytics = tag ? [new URL(tag).origin] : [];
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...plus(STRIPE.script), ...analytics]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    // data: for the page's empty favicon and antd's inline icons.
    ['img-src', ["'self'", 'data:', ...plus(STRIPE.img), ...analytics]],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", ...plus(STRIPE.connect), ...analytics]],
    ['frame-src', stripe ? STRIPE.frame : ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    // Third-party sign-in leaves by navigation (a link to /auth/third-party/...), not by a form.
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/** Every header a browser should get with every answer, page or API. */
export function securityHeaders(config: CspConfig & Pick<Config, 'PUBLIC_URL'>): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy(config),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Only this origin learns where a click came from: no console path leaves for another site.
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': `camera=(), microphone=(), geolocation=(), usb=(), payment=(${
      config.CARD_PROVIDER === 'stripe' ? 'self "https://js.stripe.com"' : ''
    })`,
  };
  // Only a console reached over https can promise https; a local http one would lock itself out.
  if (config.PUBLIC_URL.startsWith('https://')) {
    headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  }
  return headers;
}

/**
 * Sets the security headers as each request arrives, so that every answer carries them: routes,
 * static files, 404s, errors and refusals before the body is read (413). The JSON-RPC gateway is
 * left out: its callers are programs, not browsers, and it is the hot path.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headers = securityHeaders(config);
  const gateway = `${RPC_BASE_PATH}/`;
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(gateway)) reply.headers(headers);
  });
}
