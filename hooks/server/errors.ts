/** Errors the entry points report as a one-line message and exit 1, matched by type (never by text). */

/** The command line is wrong: an unknown flag, an unreadable file, a kind nobody serves. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** An environment variable holds a value the configuration refuses. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
