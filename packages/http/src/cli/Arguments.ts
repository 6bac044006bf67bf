/**
 * The command line of `wms`: its commands and options, parsed with node:util's `parseArgs` (the
 * project has no CLI framework, and four commands need none).
 */
import { Either } from "effect"
import { parseArgs } from "node:util"
import { type Format, formats } from "../features/import-export/Kinds.js"

export type Command =
  | {
    readonly _tag: "Import"
    readonly kind: string
    /** A path, or `-` for standard input. */
    readonly file: string
    readonly format: Format
    readonly site: string
    readonly user: string | undefined
  }
  | {
    readonly _tag: "Export"
    readonly kind: string
    readonly format: Format
    readonly site: string
    readonly user: string | undefined
  }
  | { readonly _tag: "Migrate" }
  | { readonly _tag: "ResetPassword"; readonly email: string; readonly fromStdin: boolean }
  | { readonly _tag: "Help" }

export const usage = `Usage: wms <command>

  wms import <kind> <file> [--site <site>] [--format csv|ndjson] [--user <email>]
      Writes the records of a CSV or NDJSON file (- for standard input), each in its own
      transaction, and prints the report {rows, written, failed, errors} as JSON. The format is
      the file's extension (.csv, .ndjson, .jsonl) unless --format names it. Exits 1 when a row
      was not written.
  wms export <kind> [--site <site>] [--format csv|ndjson] [--user <email>]
      Writes the records of the scope to standard output, as CSV (the default) or NDJSON.
  wms migrate
      Brings the database up to date; on an empty one creates the first site and admin, as the
      server does at its start.
  wms admin reset-password <email> [--password-stdin]
      Sets a new password for the user, ending its sessions, and prints it once; with
      --password-stdin the first line of standard input is the password.

Kinds: skus, customers, suppliers, carriers, orders, preadvices, stock, holds, returns.
--site is a site or a client of a fulfillment site (default WMS_SITE, or main); the records are
written and read as the system, an admin, or as the user --user names, with that user's rights.
The database is WMS_DATABASE_URL (default sqlite:./data/wms.db), as for wms-server.`

/** A command line that names no command, or one wrongly: the message, then the usage. */
export class UsageError {
  readonly _tag = "UsageError"
  constructor(readonly message: string) {}
}

const isFormat = (name: string): name is Format => (formats as ReadonlyArray<string>).includes(name)

/** The format of an import file: `--format`, else its extension. */
const importFormat = (file: string, named: string | undefined): Either.Either<Format, UsageError> => {
  if (named !== undefined) return formatNamed(named)
  if (/\.csv$/i.test(file)) return Either.right("csv")
  if (/\.(ndjson|jsonl)$/i.test(file)) return Either.right("ndjson")
  return Either.left(new UsageError(`Name the format of ${file}: --format csv or --format ndjson`))
}

const formatNamed = (named: string): Either.Either<Format, UsageError> =>
  isFormat(named) ? Either.right(named) : Either.left(new UsageError(`--format must be csv or ndjson (got ${named})`))

/** The command of `argv` (the arguments after the program); `site` is the default of `--site`. */
export const parseCommand = (argv: ReadonlyArray<string>, site: string): Either.Either<Command, UsageError> => {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        site: { type: "string" },
        format: { type: "string" },
        user: { type: "string" },
        "password-stdin": { type: "boolean" },
        help: { type: "boolean", short: "h" }
      }
    })
  } catch (error) {
    return Either.left(new UsageError(error instanceof Error ? error.message : String(error)))
  }
  const { positionals, values } = parsed
  const [name, ...rest] = positionals
  const scope = { site: values.site ?? site, user: values.user }
  const arity = (count: number, shape: string) =>
    rest.length === count ? Either.right(rest) : Either.left(new UsageError(`Usage: wms ${shape}`))
  if (values.help === true || name === "help") return Either.right({ _tag: "Help" })
  if (name === undefined) return Either.left(new UsageError("Name a command"))
  switch (name) {
    case "import":
      return Either.flatMap(
        arity(2, "import <kind> <file>"),
        ([kind, file]) =>
          Either.map(importFormat(file, values.format), (format): Command => ({
            _tag: "Import",
            kind,
            file,
            format,
            ...scope
          }))
      )
    case "export":
      return Either.flatMap(
        arity(1, "export <kind>"),
        ([kind]) =>
          Either.map(formatNamed(values.format ?? "csv"), (format): Command => ({
            _tag: "Export",
            kind,
            format,
            ...scope
          }))
      )
    case "migrate":
      return Either.map(arity(0, "migrate"), (): Command => ({ _tag: "Migrate" }))
    case "admin":
      return rest[0] === "reset-password" && rest.length === 2
        ? Either.right({ _tag: "ResetPassword", email: rest[1], fromStdin: values["password-stdin"] === true })
        : Either.left(new UsageError("Usage: wms admin reset-password <email> [--password-stdin]"))
    default:
      return Either.left(new UsageError(`Unknown command ${name}`))
  }
}
