import { ErrorBody, Wrapped } from '@ebs/contract';
import { type TSchema, Type } from '@sinclair/typebox';

/** The success wrapper every route answers with. */
export const ok = <T>(data: T, message = 'Success') => ({ statusCode: 200, message, data });

/** Response schemas of a route: the wrapped data for 200, the error wrapper otherwise. */
export const responses = <T extends TSchema>(data: T) => ({
  200: Wrapped(data),
  '4xx': ErrorBody,
  '5xx': ErrorBody,
});

export const Empty = Type.Object({});
