/**
 * An endpoint that reads its request body itself, as a stream in a format of its own (CSV,
 * NDJSON), rather than as one JSON value its payload schema decodes. The checks made for JSON
 * bodies (the 1 MiB limit, `JsonBody`) leave such a body alone, and so does `Idempotency-Key`:
 * the endpoint writes as it reads, row by row, so neither the whole body nor its effects can be
 * held in one transaction.
 */
import { Context, Option } from "effect"

export class StreamedBody extends Context.Tag("@wms/http/StreamedBody")<StreamedBody, true>() {}

/** Whether an endpoint with these annotations reads its body as a stream. */
export const isStreamed = (annotations: Context.Context<never>): boolean =>
  Option.isSome(Context.getOption(annotations, StreamedBody))
