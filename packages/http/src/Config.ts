/**
 * The server's configuration, read from environment variables.
 */
import { Config, type Option, type Redacted } from "effect"

export interface ServerConfig {
  readonly port: number
  readonly host: Option.Option<string>
  readonly databaseUrl: string
  readonly jwtSecret: Option.Option<Redacted.Redacted>
  readonly timeZone: string
  readonly bootstrapSite: string
  readonly bootstrapAdminEmail: string
  readonly bootstrapAdminPassword: Option.Option<Redacted.Redacted>
}

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
  bootstrapAdminPassword: Config.option(Config.redacted("WMS_ADMIN_PASSWORD"))
})

function isTimeZone(zone: string): boolean {
  // The default needs no check, and the first Intl.DateTimeFormat costs ~15 ms of start-up (time zone data).
  if (zone === "UTC") return true
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone })
    return true
  } catch {
    return false
  }
}
