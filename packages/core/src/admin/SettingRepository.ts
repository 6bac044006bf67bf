/**
 * The store port for installation-wide settings, such as a generated signing key.
 */
import { Context, type Effect } from "effect"

export class SettingRepository extends Context.Tag("@wms/core/SettingRepository")<SettingRepository, {
  /** The stored value of `key`; when there is none, stores `make()` first. Safe under races. */
  readonly getOrInsert: (key: string, make: () => string) => Effect.Effect<string>
}>() {}
