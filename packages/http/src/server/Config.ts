/**
 * The server's configuration, read from environment variables.
 */
import { Config, LogLevel, type Option, type Redacted } from "effect"
import type { LoginThrottleOptions } from "../auth/LoginThrottle.js"

export interface ServerConfig {
  readonly port: number
  readonly host: Option.Option<string>
  readonly databaseUrl: string
  readonly jwtSecret: Option.Option<Redacted.Redacted>
  readonly timeZone: string
  readonly bootstrapSite: string
  readonly bootstrapAdminEmail: string
  readonly bootstrapAdminPassword: Option.Option<Redacted.Redacted>
  /** log2 of scrypt's N for password hashes (`WMS_PASSWORD_HASH_COST`). */
  readonly passwordHashCost: number
  readonly loginThrottle: LoginThrottleOptions
  /** One JSON line per request on stdout (`WMS_ACCESS_LOG`). */
  readonly accessLog: boolean
  /** `GET /metrics` for Prometheus (`WMS_METRICS`). */
  readonly metrics: boolean
  /** The bearer token `GET /metrics` needs (`WMS_METRICS_TOKEN`); none needed when absent. */
  readonly metricsToken: Option.Option<Redacted.Redacted<string>>
  /** The least severe level logged (`WMS_LOG_LEVEL`); access lines are not affected. */
  readonly logLevel: LogLevel.LogLevel
  /** Where traces go over OTLP/HTTP (`OTEL_EXPORTER_OTLP_ENDPOINT`); none when absent. */
  readonly otlpEndpoint: Option.Option<string>
  /** `service.name` of the traces (`OTEL_SERVICE_NAME`). */
  readonly serviceName: string
  /** Webhooks may target private addresses (`WMS_WEBHOOK_ALLOW_PRIVATE`), for development and tests. */
  readonly webhookAllowPrivate: boolean
  /** How long a request may take to arrive, headers and body (`WMS_REQUEST_TIMEOUT_SECONDS`); 0: no limit. */
  readonly requestTimeoutSeconds: number
}

const positiveInteger = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: "must be an integer of at least 1", validation: (n) => n >= 1 })
  )

export const serverConfig: Config.Config<ServerConfig> = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(3000)),
  host: Config.option(Config.string("HOST")),
  databaseUrl: Config.string("WMS_DATABASE_URL").pipe(Config.withDefault("sqlite:./data/wms.db")),
  jwtSecret: Config.option(Config.redacted("WMS_JWT_SECRET")),
  timeZone: Config.string("WMS_TIMEZONE").pipe(
    Config.withDefault("UTC"),
    Config.validate({ message: "must be an IANA time zone, e.g. Europe/Amsterdam", validation: isTimeZone })
  ),
  bootstrapSite: Config.string("WMS_SITE").pipe(Config.withDefault("main")),
  bootstrapAdminEmail: Config.string("WMS_ADMIN_EMAIL").pipe(Config.withDefault("admin@example.com")),
  bootstrapAdminPassword: Config.option(Config.redacted("WMS_ADMIN_PASSWORD")),
  passwordHashCost: Config.integer("WMS_PASSWORD_HASH_COST").pipe(
    Config.withDefault(17),
    Config.validate({ message: "must be an integer from 14 to 20", validation: (n) => n >= 14 && n <= 20 })
  ),
  loginThrottle: Config.all({
    maxFailuresPerEmail: positiveInteger("WMS_LOGIN_MAX_FAILURES_PER_EMAIL", 5),
    maxFailuresPerAddress: positiveInteger("WMS_LOGIN_MAX_FAILURES_PER_ADDRESS", 50),
    windowSeconds: positiveInteger("WMS_LOGIN_THROTTLE_SECONDS", 900)
  }),
  accessLog: Config.boolean("WMS_ACCESS_LOG").pipe(Config.withDefault(true)),
  metrics: Config.boolean("WMS_METRICS").pipe(Config.withDefault(true)),
  metricsToken: Config.option(Config.redacted(Config.nonEmptyString("WMS_METRICS_TOKEN"))),
  logLevel: Config.logLevel("WMS_LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info)),
  otlpEndpoint: Config.option(Config.nonEmptyString("OTEL_EXPORTER_OTLP_ENDPOINT")),
  serviceName: Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("wms")),
  webhookAllowPrivate: Config.boolean("WMS_WEBHOOK_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
  requestTimeoutSeconds: Config.integer("WMS_REQUEST_TIMEOUT_SECONDS").pipe(
    Config.withDefault(300),
    Config.validate({ message: "must be an integer of at least 0", validation: (n) => n >= 0 })
  )
})

function isTimeZone(zone: string): boolean {
  // The default needs no check, and the first Intl.DateTimeFormat loads the time zone data at start-up.
  if (zone === "UTC") return true
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone })
    return true
  } catch {
    return false
  }
}
