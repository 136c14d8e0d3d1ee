// pgpass (the ~/.pgpass reader node-postgres itself used) ships no types; only its one function is declared.
declare module "pgpass" {
  interface PgPassConnection {
    host?: string;
    port?: number | string;
    database?: string;
    user?: string;
  }
  /** Calls back with the matching line's password, or undefined (no file, no match, or a file others can read). */
  export default function pgPass(connection: PgPassConnection, callback: (password: string | undefined) => void): void;
}
