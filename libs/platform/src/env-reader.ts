/** Reading a service's environment: every problem collected, secrets checked (config.ts reads the settings). */

/**
 * The internal secret a service uses when none is set: written in the source, so known to anyone.
 * Taken only by a service that listens on loopback; `pnpm start` makes one per install instead
 * (deploy/dev-secret.ts).
 */
export const DEV_SECRET = 'dev-only-internal-secret-change-me-0123456789';

/** Words that mark a value copied from an example, a default or a test, never a real secret. */
const PLACEHOLDER =
  /change-?me|changeit|dev-only|example|placeholder|replace|secret|password|default|test|dummy|xxxx|0123456789|abcdef/i;

/**
 * Why a secret is unfit for production (`a placeholder`, `too short`, `too simple`), or null.
 * A random value of 32 characters has far more than 12 distinct characters.
 */
export function secretWeakness(value: string): string | null {
  if (value === DEV_SECRET || PLACEHOLDER.test(value)) return 'a placeholder';
  if (value.length < 32) return 'too short';
  if (new Set(value).size < 12) return 'too simple';
  return null;
}

/**
 * Reads environment variables, collecting every problem so that a service reports all bad
 * variables at once, then throws from `done()`.
 */
export class EnvReader {
  private readonly problems: string[] = [];
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The environment read (for settings named by a pattern, such as STREAM_MAX_BYTES_<STREAM>). */
  get environment(): NodeJS.ProcessEnv {
    return this.env;
  }

  str(name: string, def: string): string {
    const v = this.env[name];
    return v === undefined || v === '' ? def : v;
  }

  optional(name: string): string | null {
    const v = this.env[name];
    return v === undefined || v === '' ? null : v;
  }

  num(name: string, def: number, min = 0): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return def;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) {
      this.problems.push(`${name} must be a number >= ${min} (got ${JSON.stringify(raw)})`);
      return def;
    }
    return n;
  }

  bool(name: string, def: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return def;
    if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name} must be true or false`);
    return def;
  }

  oneOf<T extends string>(name: string, values: readonly T[], def: T): T {
    const v = this.str(name, def);
    if (!values.includes(v as T)) this.problems.push(`${name} must be one of ${values.join(', ')}`);
    return v as T;
  }

  /** A secret that must be set outside development, and in production not to a placeholder or weak value. */
  secret(name: string, devDefault: string): string {
    const production = this.production();
    const v = this.env[name] ?? (production ? '' : devDefault);
    if (v.length < 32) this.problems.push(`${name} must be set (at least 32 characters) outside development`);
    else if (production) this.strong(name, v);
    return v;
  }

  /** A URL with one of the given schemes; outside development it must be set (no local default). */
  url(name: string, schemes: readonly string[], devDefault: string): string {
    const production = this.env.NODE_ENV === 'production';
    const v = this.optional(name) ?? (production ? null : devDefault);
    if (v === null) {
      this.problems.push(`${name} must be set outside development`);
      return devDefault;
    }
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(v)?.[1]?.toLowerCase();
    if (!scheme || !schemes.includes(scheme)) this.problems.push(`${name} must be a ${schemes.join(' or ')} URL`);
    return v;
  }

  /** An optional secret (unset switches its feature off); in production, when set, it must be strong. */
  optionalSecret(name: string): string | null {
    const v = this.optional(name);
    if (v !== null && this.production()) this.strong(name, v);
    return v;
  }

  /** NODE_ENV=production: placeholders and open doors are refused. */
  production(): boolean {
    return this.env.NODE_ENV === 'production';
  }

  private strong(name: string, value: string): void {
    const weakness = secretWeakness(value);
    if (weakness) this.problems.push(`${name} is ${weakness}: in production set it to at least 32 random characters`);
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  done<T extends object>(service: string, config: T): Readonly<T> {
    if (this.problems.length) throw new ConfigError(service, this.problems);
    return Object.freeze(config);
  }
}

/** Bad configuration: every problem, each naming its variable; `message` is one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    readonly service: string,
    readonly problems: readonly string[],
  ) {
    super(`${service} configuration is invalid: ${problems.join('; ')}`);
  }
}
