import type { RequestLogEntry } from '@ebs/contract';
import { InsightTexts as T } from './insight-texts';

/** What a logged request came to: refused by the gateway (4xx), failed at the nodes (5xx), an error answer, or answered. */
export function requestKind(entry: Pick<RequestLogEntry, 'httpStatus' | 'errorCode'>) {
  if (entry.httpStatus >= 400 && entry.httpStatus < 500) return { text: T.refusedByKey, color: 'orange' };
  if (entry.httpStatus >= 500) return { text: T.upstreamFailed, color: 'red' };
  if (entry.errorCode !== null) return { text: T.nodeError, color: 'red' };
  return { text: T.answered, color: 'green' };
}
