/**
 * Throttling of failed logins, per e-mail address and per client address: once either has had
 * `max…` failures within the window, `/login` answers 429 with `Retry-After` until the oldest of
 * them leaves the window, before any password is checked. A successful login clears its e-mail's
 * failures. The counts live in the process: each server of an installation counts its own.
 */
import { Context } from "effect"
import { TooManyLogins } from "../api/Errors.js"

export interface LoginThrottleOptions {
  readonly maxFailuresPerEmail: number
  readonly maxFailuresPerAddress: number
  readonly windowSeconds: number
}

/** 5 failures per e-mail and 50 per address within 15 minutes, unless configured otherwise. */
export class LoginThrottleOptionsRef extends Context.Reference<LoginThrottleOptionsRef>()(
  "@wms/http/LoginThrottleOptions",
  {
    defaultValue: (): LoginThrottleOptions => ({
      maxFailuresPerEmail: 5,
      maxFailuresPerAddress: 50,
      windowSeconds: 900
    })
  }
) {}

// The most keys kept per kind; the oldest goes first, so a flood of new keys cannot exhaust memory.
const maxKeys = 100_000

/** The failures of one kind of key (e-mail or address): epoch-ms instants, oldest first. */
const failureLog = (max: number, windowMillis: number) => {
  const failures = new Map<string, Array<number>>()
  const recent = (key: string, now: number) => {
    const log = failures.get(key)
    if (log === undefined) return []
    while (log.length > 0 && log[0] <= now - windowMillis) log.shift()
    if (log.length === 0) failures.delete(key)
    return log
  }
  return {
    /** Milliseconds until the key may try again; 0 when it may now. */
    waitMillis: (key: string, now: number) => {
      const log = recent(key, now)
      return log.length < max ? 0 : log[log.length - max] + windowMillis - now
    },
    add: (key: string, now: number) => {
      const log = recent(key, now)
      if (log.length === 0) {
        if (failures.size >= maxKeys) failures.delete(failures.keys().next().value!)
        failures.set(key, log)
      }
      log.push(now)
      if (log.length > max) log.shift()
    },
    clear: (key: string) => failures.delete(key)
  }
}

/** The throttle of one server. E-mail addresses are compared as `/login` compares them. */
export const make = (options: LoginThrottleOptions) => {
  const windowMillis = options.windowSeconds * 1000
  const byEmail = failureLog(options.maxFailuresPerEmail, windowMillis)
  const byAddress = failureLog(options.maxFailuresPerAddress, windowMillis)
  return {
    /** The refusal when the e-mail or the address must wait, or `undefined`. */
    refusal: (email: string, address: string, now: number): TooManyLogins | undefined => {
      const wait = Math.max(byEmail.waitMillis(email, now), byAddress.waitMillis(address, now))
      if (wait <= 0) return undefined
      const retryAfterSeconds = Math.ceil(wait / 1000)
      return new TooManyLogins({
        message: `Too many failed logins; try again in ${retryAfterSeconds} seconds`,
        retryAfterSeconds
      })
    },
    failed: (email: string, address: string, now: number) => {
      byEmail.add(email, now)
      byAddress.add(address, now)
    },
    succeeded: (email: string) => byEmail.clear(email)
  }
}
