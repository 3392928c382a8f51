/** A setting of the environment that is missing or malformed: one clear line, the start stops. */
export class ConfigError extends Error {}
