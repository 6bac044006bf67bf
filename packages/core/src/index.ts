/**
 * The warehouse domain: entities, rules and the ports a store implements. No I/O.
 */
export * from "./Administration.js"
export * from "./Errors.js"
export * from "./Ids.js"
export * from "./PasswordHasher.js"
export * from "./SettingRepository.js"
export * from "./Site.js"
export * from "./SiteRepository.js"
export * as Tenancy from "./Tenancy.js"
export type { Actor, Owner, Principal, Scope, ScopeTarget } from "./Tenancy.js"
export * from "./Transactor.js"
export * from "./User.js"
export * from "./UserRepository.js"
export * from "./Formats.js"
export * from "./Ownership.js"
export * from "./Status.js"
