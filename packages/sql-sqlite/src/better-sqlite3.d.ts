/**
 * The part of better-sqlite3's API the store uses (the package ships no types, and
 * `@types/better-sqlite3` is not a dependency of the workspace).
 */
declare module "better-sqlite3" {
  namespace Database {
    interface Statement {
      /** True when the statement returns rows (a `SELECT`, or a write with `RETURNING`). */
      readonly reader: boolean
      all(...params: ReadonlyArray<unknown>): Array<unknown>
      run(...params: ReadonlyArray<unknown>): { readonly changes: number; readonly lastInsertRowid: number | bigint }
      /** Rows as arrays of values instead of objects. */
      raw(toggle: boolean): this
    }

    interface Database {
      prepare(source: string): Statement
      pragma(source: string): unknown
      close(): this
    }
  }

  const Database: new(filename: string, options?: { readonly readonly?: boolean }) => Database.Database

  export default Database
}
