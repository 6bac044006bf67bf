/**
 * Traces of the bundled server, exported over OTLP/HTTP (JSON) when `OTEL_EXPORTER_OTLP_ENDPOINT`
 * names a collector (`http://collector:4318`; spans go to `<endpoint>/v1/traces`): a span per
 * request from the HTTP server and one per SQL statement from @effect/sql. Without it the server
 * makes no spans at all: on effect 3 a span costs more than a hot route's own work (README,
 * Performance). The exporter is
 * `@effect/opentelemetry`'s OTLP tracer, written on Effect alone (no OpenTelemetry SDK); it is an
 * optional peer dependency of `@wms/http`, loaded only when tracing is on.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Effect, Layer, Option } from "effect"

export interface TracingOptions {
  /** The collector's base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`); no tracing when absent. */
  readonly otlpEndpoint: Option.Option<string>
  /** `service.name` of the spans (`OTEL_SERVICE_NAME`). */
  readonly serviceName: string
}

/** The tracer the server's layers are built with: the OTLP exporter, or none. */
export const layer = (options: TracingOptions): Layer.Layer<never> =>
  Option.match(options.otlpEndpoint, {
    onNone: () => Layer.setTracerEnabled(false),
    onSome: (endpoint) =>
      Layer.unwrapEffect(Effect.promise(async () => {
        const [OtlpTracer, OtlpSerialization] = await Promise.all([
          import("@effect/opentelemetry/OtlpTracer"),
          import("@effect/opentelemetry/OtlpSerialization")
        ])
        return OtlpTracer.layer({
          url: `${endpoint.replace(/\/+$/, "")}/v1/traces`,
          resource: { serviceName: options.serviceName },
          exportInterval: "1 second"
        }).pipe(Layer.provide([OtlpSerialization.layerJson, NodeHttpClient.layer]))
      }))
  })
