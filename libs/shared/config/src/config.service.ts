/**
 * Typed access to a service's validated environment. Nest modules inject it; the key type keeps
 * callers from asking for a variable the service does not declare.
 */
export class ConfigService<Env extends object> {
  constructor(private readonly env: Env) {}

  get<K extends keyof Env>(key: K): Env[K] {
    return this.env[key];
  }
}
