/**
 * What the web build loads in place of @sinclair/typebox (vite.config.ts). The contract builds its
 * schemas when its modules load, and the browser never validates with them: the server does, and
 * the web's own tests run with the real library. Every builder answers an empty object, so the
 * contract's modules load and TypeBox stays out of every route. Only `Type` is here: code that
 * imports anything else from TypeBox fails to build for the browser instead of running wrong.
 */
const emptySchema = () => ({});

export const Type: Record<string, () => object> = new Proxy({}, { get: () => emptySchema });
