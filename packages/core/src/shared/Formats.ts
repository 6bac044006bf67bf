/**
 * The value formats of the API (DECISIONS §2): calendar dates, date-times in the configured time
 * zone, integer quantities and numeric record ids.
 */
import { Context, Schema } from "effect"

const isCalendarDate = (value: string) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (match === null) return false
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return date.toISOString().startsWith(value)
}

/** A calendar date `YYYY-MM-DD` that exists. */
export const CalendarDate = Schema.String.pipe(
  Schema.filter(isCalendarDate, {
    message: () => "must be a date YYYY-MM-DD",
    jsonSchema: { pattern: "^\\d{4}-\\d{2}-\\d{2}$" }
  })
)

/** The largest whole number a store keeps: ids, quantities and line numbers are 32-bit integer columns. */
export const maxInteger = 2147483647

/** The largest quantity a store keeps (a 32-bit integer column). */
export const maxQuantity = maxInteger

/** A quantity on write: an integer from 1 to `maxQuantity`. */
export const Quantity = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 1, {
    message: () => "must be an integer of at least 1",
    jsonSchema: { type: "integer", minimum: 1 }
  }),
  Schema.filter((n) => n <= maxQuantity, {
    message: () => `must be at most ${maxQuantity}`,
    jsonSchema: { maximum: maxQuantity }
  })
)

/**
 * A numeric record id in a write body: a positive integer that fits the stores' 32-bit id columns,
 * so `1.5`, `-1` or `2147483648` give 400 on both stores alike.
 */
export const RecordId = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= maxInteger, {
    message: () => "must be an integer id",
    jsonSchema: { type: "integer", minimum: 1, maximum: maxInteger }
  })
)

/** A numeric record id in a path: digits only, so `1.5`, `abc` or `-1` give 400. */
export const RecordIdFromPath = Schema.String.pipe(
  Schema.filter((s) => /^[1-9]\d{0,9}$/.test(s) && Number(s) <= maxInteger, { message: () => "must be an integer id" }),
  Schema.compose(Schema.NumberFromString)
)

/** The service's time zone for every date-time it shows (`WMS_TIMEZONE`, default UTC). */
export class TimeZone extends Context.Reference<TimeZone>()("@wms/core/TimeZone", {
  defaultValue: () => "UTC"
}) {}

const partsIn = (instant: Date, timeZone: string) => {
  const parts: Record<string, string> = {}
  for (const part of formatterFor(timeZone).formatToParts(instant)) parts[part.type] = part.value
  return parts
}

const formatters = new Map<string, Intl.DateTimeFormat>()
const formatterFor = (timeZone: string) => {
  let formatter = formatters.get(timeZone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/** `YYYY-MM-DD HH:mm:ss` of an instant (an ISO string or epoch millis) in `timeZone`. */
export const formatDateTime = (instant: string | number, timeZone: string): string => {
  const p = partsIn(new Date(instant), timeZone)
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`
}

/** `DD-MM-YYYY HH:mm:ss`, the documented format of a pre-advice's `creation_datetime`. */
export const formatDutchDateTime = (instant: string | number, timeZone: string): string => {
  const p = partsIn(new Date(instant), timeZone)
  return `${p.day}-${p.month}-${p.year} ${p.hour}:${p.minute}:${p.second}`
}

/** `YYYY-MM-DD` of an instant in `timeZone`. */
export const formatDate = (instant: string | number, timeZone: string): string =>
  formatDateTime(instant, timeZone).slice(0, 10)
