/**
 * The handlers of bulk import and export. They read the request itself: the import streams its
 * body (`StreamedBody`) and the export answers with a stream, so the group has no table of the
 * facade's kind (`Table.ts`), whose entries take decoded input and answer values.
 */
import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as NodeStream from "@effect/platform-node/NodeStream"
import { InvalidInput } from "@wms/core"
import { Effect, Stream } from "effect"
import { Readable } from "node:stream"
import { CurrentActor } from "../../api/Security.js"
import { groupHandlers } from "../Feature.js"
import { Bulk } from "./Bulk.js"
import { ImportExportApi, kindOf } from "./ImportExportApi.js"
import { formatOfAccept, formatOfContentType, mediaTypes } from "./Kinds.js"

const unreadableBody = new InvalidInput({ message: "Request body could not be read" })

/**
 * The request's body as a Node stream: on Node the request itself, which the import leaves open
 * when it ends before the body does (a CSV header refused, a row over 1 MiB), so that Node reads
 * the rest away and the answer reaches the client; elsewhere the platform's stream of the body.
 */
const bodyOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.source instanceof Readable
    ? Effect.succeed(request.source)
    : NodeStream.toReadable(Stream.mapError(request.stream, () => unreadableBody))

export const ImportExportHandlers = groupHandlers(ImportExportApi)((handlers) =>
  Effect.map(Bulk, (bulk) =>
    handlers
      .handle("importRecords", ({ path, request }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          const kind = yield* kindOf(path.kind)
          const format = formatOfContentType(request.headers["content-type"])
          if (format === undefined) {
            return yield* new InvalidInput({ message: "Content-Type must be text/csv or application/x-ndjson" })
          }
          if (request.headers["idempotency-key"] !== undefined) {
            return yield* new InvalidInput({
              message: "Idempotency-Key is not taken by an import: its rows are written as they are read"
            })
          }
          return yield* bulk.importRecords(actor, kind, format, yield* bodyOf(request))
        }))
      .handle("exportRecords", ({ path, request, urlParams }) =>
        Effect.gen(function*() {
          const actor = yield* CurrentActor
          const kind = yield* kindOf(path.kind)
          const format = urlParams.format ?? formatOfAccept(request.headers.accept) ?? "csv"
          const extension = format === "csv" ? "csv" : "ndjson"
          return HttpServerResponse.stream(Stream.encodeText(bulk.exportRecords(actor, kind, format)), {
            contentType: format === "csv" ? `${mediaTypes.csv}; charset=utf-8` : mediaTypes.ndjson,
            headers: { "content-disposition": `attachment; filename="${kind}.${extension}"` }
          })
        }))).pipe(Effect.provide(Bulk.Default))
)
