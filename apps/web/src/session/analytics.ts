import type { PublicConfig } from '@ebs/contract';

/**
 * Starts the analytics tag (spec B §9): only in the prod environment, only when the server names
 * one, and once. The server sends its address only in prod and lets its origin in through the
 * Content-Security-Policy; the environment is checked here too, so no other environment loads it.
 */
export function startAnalytics(config: PublicConfig | undefined): boolean {
  const src = config?.appEnv === 'prod' ? config.analyticsScriptUrl : undefined;
  if (!src || document.querySelector('script[data-analytics-tag]')) return false;
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  script.dataset.analyticsTag = '';
  document.head.append(script);
  return true;
}
