/** Types of postgres-admin.js (CommonJS, loaded by plain node and by jest alike). */
export interface PostgresConnection {
  host: string;
  port: number;
  user: string;
  password: string;
}
type Env = Record<string, string | undefined>;
export function connectionOf(env?: Env): PostgresConnection;
export function postgresAdmin(statements: string[], env?: Env): Promise<void>;
export function createDatabase(name: string, env?: Env): Promise<void>;
export function copyDatabase(name: string, template: string, env?: Env): Promise<void>;
export function dropDatabase(name: string, env?: Env): Promise<void>;
