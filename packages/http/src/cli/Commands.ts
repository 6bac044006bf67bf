/**
 * The commands of `wms`, run on the engine in this process on the database of
 * `WMS_DATABASE_URL`, opened as the server opens it (`Warehouse.layer`, which brings it up to date
 * first). Each answers the process's exit code; a failure is one line on standard error.
 */
import * as NodeSink from "@effect/platform-node/NodeSink"
import {
  Administration,
  decodeInput,
  normalizeEmail,
  systemActor,
  userActor,
  UserChanges,
  UserRepository
} from "@wms/core"
import { Console, Data, Effect, Layer, Option, Stream } from "effect"
import { randomBytes } from "node:crypto"
import { createReadStream, statSync } from "node:fs"
import { Bulk } from "../features/import-export/Bulk.js"
import { kindOf } from "../features/import-export/ImportExportApi.js"
import type { ServerConfig } from "../server/Config.js"
import * as Server from "../server/Server.js"
import * as Warehouse from "../Warehouse.js"
import type { Command } from "./Arguments.js"
import { progressOf } from "./Progress.js"

/** A failure of a command that is not the engine's: a file that cannot be read, an unknown user. */
class CommandFailure extends Data.TaggedError("CommandFailure")<{ readonly message: string }> {}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Who a command acts as in the scope of `site`: the system (an admin), or the user `user` names. */
const actorOf = (site: string, user: string | undefined) =>
  (user === undefined ? systemActor(site) : userActor(user, site)).pipe(
    Effect.catchIf(
      (error) => error._tag === "Forbidden" && user === undefined,
      () =>
        new CommandFailure({
          message: `Invalid site ${site}: no site or client has that id (wms migrate creates the first site, WMS_SITE)`
        })
    )
  )

/** `file`, or standard input for `-`, and how much of it has been read so far of how much. */
const source = (file: string) =>
  Effect.try({
    try: () => {
      if (file === "-") return { readable: process.stdin, size: undefined, read: () => 0 }
      const size = statSync(file).size
      const readable = createReadStream(file)
      return { readable, size, read: () => readable.bytesRead }
    },
    catch: (error) => new CommandFailure({ message: `Cannot read ${file}: ${reason(error)}` })
  })

const importFile = (command: Extract<Command, { readonly _tag: "Import" }>) =>
  Effect.gen(function*() {
    const kind = yield* kindOf(command.kind)
    const actor = yield* actorOf(command.site, command.user)
    const bulk = yield* Bulk
    const { read, readable, size } = yield* source(command.file)
    const progress = progressOf(size)
    const report = yield* bulk.importRecords(actor, kind, command.format, readable, {
      onRecord: (sofar) => progress.update(read(), sofar)
    }).pipe(Effect.ensuring(Effect.sync(progress.stop)))
    yield* Console.log(JSON.stringify(report, null, 2))
    yield* Console.error(`${report.written} of ${report.rows} rows written to ${command.site}`)
    return report.failed === 0 ? 0 : 1
  })

const exportRecords = (command: Extract<Command, { readonly _tag: "Export" }>) =>
  Effect.gen(function*() {
    const kind = yield* kindOf(command.kind)
    const actor = yield* actorOf(command.site, command.user)
    const bulk = yield* Bulk
    yield* Stream.run(
      bulk.exportRecords(actor, kind, command.format),
      NodeSink.fromWritable(() => process.stdout, (error) =>
        new CommandFailure({ message: `Cannot write: ${reason(error)}` }), {
        endOnDone: false
      })
    )
    return 0
  })

const migrate = (config: ServerConfig) =>
  Effect.gen(function*() {
    // The database is brought up to date as the warehouse opens; then the first site and admin.
    yield* Effect.scoped(Layer.build(Server.bootstrap(config)))
    yield* Console.error("The database is up to date")
    return 0
  })

/** The first line of standard input. */
const stdinLine = Effect.tryPromise({
  try: async () => {
    let text = ""
    for await (const chunk of process.stdin) text += String(chunk)
    return text.split(/\r?\n/, 1)[0]
  },
  catch: (error) => new CommandFailure({ message: `Cannot read standard input: ${reason(error)}` })
})

const resetPassword = (command: Extract<Command, { readonly _tag: "ResetPassword" }>) =>
  Effect.gen(function*() {
    const users = yield* UserRepository
    const administration = yield* Administration
    const email = normalizeEmail(command.email)
    const found = yield* users.findByEmail(email)
    if (Option.isNone(found)) return yield* new CommandFailure({ message: `User ${email} not found` })
    const { user } = found.value
    const password = command.fromStdin ? yield* stdinLine : randomBytes(18).toString("base64url")
    const changes = yield* decodeInput(UserChanges, { password })
    yield* administration.updateUser(yield* systemActor(user.site), user.userId, changes)
    if (!command.fromStdin) yield* Console.log(password)
    yield* Console.error(
      `Set a new password for ${email}${command.fromStdin ? "" : " (shown once)"}; its sessions have ended`
    )
    return 0
  })

/** The engine of the server's configuration, with bulk import and export. */
const engine = (config: ServerConfig) =>
  Bulk.Default.pipe(
    Layer.provideMerge(Warehouse.layer({
      database: config.databaseUrl,
      timeZone: config.timeZone,
      passwordHashCost: config.passwordHashCost,
      allowPrivateWebhookTargets: config.webhookAllowPrivate
    }))
  )

/** Runs a command other than help; answers the exit code: 0 done, 1 failed or a row not written. */
export const run = (command: Exclude<Command, { readonly _tag: "Help" }>, config: ServerConfig) => {
  const program = command._tag === "Import"
    ? importFile(command)
    : command._tag === "Export"
    ? exportRecords(command)
    : command._tag === "Migrate"
    ? migrate(config)
    : resetPassword(command)
  return program.pipe(
    Effect.provide(engine(config)),
    Effect.catchAll((error) => Effect.as(Console.error(error.message), 1))
  )
}
