/**
 * Where a webhook may post (issue 19): a public address only, never the server's own loopback, a
 * private or link-local network, a cloud metadata service or an address no host has. The rule is
 * checked when a webhook is written (on its URL's host) and again at each delivery (on every
 * address the host resolves to, by the worker), so that no one who may write a site's webhooks can
 * make the server post to its internal services.
 *
 * The addresses are classified by hand over their parsed bytes: core imports nothing but `effect`,
 * and neither it nor the platform (node's `net.BlockList` is I/O-side) offers the ranges here.
 */
import { Context, Effect } from "effect"
import { invalidField, type InvalidInput } from "../shared/Errors.js"

/** What a host or an address is; every kind but `public` is refused as a webhook target. */
export type TargetKind =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "unique-local"
  | "unspecified"
  | "multicast"
  | "broadcast"
  | "metadata"
  | "reserved"

/**
 * Whether private targets are allowed (`WMS_WEBHOOK_ALLOW_PRIVATE`): for development and tests
 * that deliver to a receiver on loopback. Cloud metadata stays refused even then.
 */
export class AllowPrivateWebhookTargets extends Context.Reference<AllowPrivateWebhookTargets>()(
  "@wms/core/AllowPrivateWebhookTargets",
  { defaultValue: (): boolean => false }
) {}

const decimalOctet = /^(0|[1-9]\d{0,2})$/

/** The 4 bytes of a dotted-decimal IPv4 address, or undefined. */
export const parseIpv4 = (text: string): ReadonlyArray<number> | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4 || !parts.every((part) => decimalOctet.test(part))) return undefined
  const bytes = parts.map(Number)
  return bytes.every((byte) => byte <= 255) ? bytes : undefined
}

const hextet = /^[0-9a-f]{1,4}$/i

/** The 16 bytes of an IPv6 address (a zone `%…` ignored, a trailing dotted IPv4 allowed), or undefined. */
export const parseIpv6 = (text: string): ReadonlyArray<number> | undefined => {
  const address = text.split("%")[0]
  const halves = address.split("::")
  if (halves.length > 2) return undefined
  const groupsOf = (half: string): Array<number> | undefined => {
    if (half === "") return []
    const groups: Array<number> = []
    const parts = half.split(":")
    for (const [index, part] of parts.entries()) {
      if (index === parts.length - 1 && part.includes(".")) {
        const ipv4 = parseIpv4(part)
        if (ipv4 === undefined) return undefined
        groups.push((ipv4[0] << 8) | ipv4[1], (ipv4[2] << 8) | ipv4[3])
      } else if (hextet.test(part)) {
        groups.push(parseInt(part, 16))
      } else {
        return undefined
      }
    }
    return groups
  }
  const head = groupsOf(halves[0])
  const tail = halves.length === 2 ? groupsOf(halves[1]) : []
  if (head === undefined || tail === undefined) return undefined
  // A dotted IPv4 may end only the whole address.
  if (halves.length === 2 && halves[0].includes(".")) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail]
  return groups.flatMap((group) => [group >> 8, group & 0xff])
}

/** The addresses whose first `length` bits are those of `bytes`. */
interface Prefix {
  readonly bytes: ReadonlyArray<number>
  readonly length: number
}

interface Range extends Prefix {
  readonly kind: TargetKind
}

const v4 = (text: string, length: number, kind: TargetKind): Range => ({ bytes: parseIpv4(text)!, length, kind })

// The first match counts, so a narrower range comes before the one that holds it.
const ipv4Ranges: ReadonlyArray<Range> = [
  // AWS, Azure, GCP, OpenStack and others; AWS ECS task metadata; Alibaba Cloud; Oracle Cloud.
  v4("169.254.169.254", 32, "metadata"),
  v4("169.254.170.2", 32, "metadata"),
  v4("100.100.100.200", 32, "metadata"),
  v4("192.0.0.192", 32, "metadata"),
  v4("0.0.0.0", 8, "unspecified"),
  v4("10.0.0.0", 8, "private"),
  // Carrier-grade NAT: shared by a provider's customers, never on the public internet.
  v4("100.64.0.0", 10, "private"),
  v4("127.0.0.0", 8, "loopback"),
  v4("169.254.0.0", 16, "link-local"),
  v4("172.16.0.0", 12, "private"),
  v4("192.0.0.0", 24, "reserved"),
  v4("192.0.2.0", 24, "reserved"),
  v4("192.168.0.0", 16, "private"),
  v4("198.18.0.0", 15, "reserved"),
  v4("198.51.100.0", 24, "reserved"),
  v4("203.0.113.0", 24, "reserved"),
  v4("224.0.0.0", 4, "multicast"),
  v4("255.255.255.255", 32, "broadcast"),
  v4("240.0.0.0", 4, "reserved")
]

const v6 = (text: string, length: number): Prefix => ({ bytes: parseIpv6(text)!, length })

const ipv6Ranges: ReadonlyArray<Range> = [
  // AWS's metadata service on IPv6.
  { ...v6("fd00:ec2::254", 128), kind: "metadata" },
  { ...v6("::", 128), kind: "unspecified" },
  { ...v6("::1", 128), kind: "loopback" },
  // Discard-only and documentation.
  { ...v6("100::", 64), kind: "reserved" },
  { ...v6("2001:db8::", 32), kind: "reserved" },
  { ...v6("fc00::", 7), kind: "unique-local" },
  { ...v6("fe80::", 10), kind: "link-local" },
  // Site-local: deprecated, but some networks still route it as private.
  { ...v6("fec0::", 10), kind: "private" },
  { ...v6("ff00::", 8), kind: "multicast" }
]

/** IPv6 prefixes that carry an IPv4 address in the bytes from `at`: the target is that address. */
const embeddingIpv4: ReadonlyArray<{ readonly prefix: Prefix; readonly at: number }> = [
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d).
  { prefix: v6("::ffff:0:0", 96), at: 12 },
  { prefix: v6("::ffff:0:0:0", 96), at: 12 },
  // NAT64, well-known and local-use.
  { prefix: v6("64:ff9b::", 96), at: 12 },
  { prefix: v6("64:ff9b:1::", 48), at: 12 },
  // 6to4: the IPv4 address of the relay follows the prefix.
  { prefix: v6("2002::", 16), at: 2 }
]

// IPv4-compatible (::a.b.c.d), deprecated: no host has such an address, so it is refused whatever
// it embeds, as the kind of what it embeds when that is not public.
const ipv4Compatible = v6("::", 96)

const matches = (bytes: ReadonlyArray<number>, prefix: Prefix): boolean => {
  for (let bit = 0; bit < prefix.length; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, prefix.length - bit))) & 0xff
    if ((bytes[bit / 8] & mask) !== (prefix.bytes[bit / 8] & mask)) return false
  }
  return true
}

const kindIn = (bytes: ReadonlyArray<number>, ranges: ReadonlyArray<Range>): TargetKind =>
  ranges.find((range) => matches(bytes, range))?.kind ?? "public"

const ipv6Kind = (bytes: ReadonlyArray<number>): TargetKind => {
  const kind = kindIn(bytes, ipv6Ranges)
  if (kind !== "public") return kind
  for (const { at, prefix } of embeddingIpv4) {
    if (matches(bytes, prefix)) return kindIn(bytes.slice(at, at + 4), ipv4Ranges)
  }
  if (matches(bytes, ipv4Compatible)) {
    const embedded = kindIn(bytes.slice(12), ipv4Ranges)
    return embedded === "public" ? "reserved" : embedded
  }
  return "public"
}

/** The kind of an IP address in text (IPv4 dotted decimal or IPv6), or undefined when it is not one. */
export const addressKind = (address: string): TargetKind | undefined => {
  const ipv4 = parseIpv4(address)
  if (ipv4 !== undefined) return kindIn(ipv4, ipv4Ranges)
  const ipv6 = address.includes(":") ? parseIpv6(address) : undefined
  return ipv6 === undefined ? undefined : ipv6Kind(ipv6)
}

// Names of cloud metadata services, as their instances resolve them.
const metadataNames: ReadonlySet<string> = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal"
])

/**
 * The kind of a URL's host as `new URL` leaves it: numeric IPv4 forms (`2130706433`, `0x7f.1`)
 * already in dotted decimal, IPv6 in brackets, names in lower case, a final dot kept. A name is
 * `public` unless it is `localhost` (or under it) or a metadata service's: what it resolves to is
 * checked at delivery.
 */
export const hostKind = (hostname: string): TargetKind => {
  const host = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  const address = addressKind(host)
  if (address !== undefined) return address
  const name = host.toLowerCase().replace(/\.$/, "")
  if (name === "localhost" || name.endsWith(".localhost")) return "loopback"
  return metadataNames.has(name) ? "metadata" : "public"
}

/** Whether a target of this kind is refused: any but a public one, metadata even when private ones are allowed. */
export const isRefused = (kind: TargetKind, allowPrivate: boolean): boolean =>
  kind !== "public" && (kind === "metadata" || !allowPrivate)

const described: Record<Exclude<TargetKind, "public">, string> = {
  loopback: "a loopback address",
  private: "a private address",
  "link-local": "a link-local address",
  "unique-local": "a unique-local address",
  unspecified: "an unspecified address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  metadata: "a cloud metadata address",
  reserved: "a reserved address"
}

/** The kind in words (`a loopback address`), for messages. */
export const describeKind = (kind: TargetKind): string => (kind === "public" ? "a public address" : described[kind])

/**
 * Why a webhook may not post to `url` (an absolute http(s) URL), or undefined when it may:
 * `<url> targets a loopback address, not a public one`.
 */
export const urlRefusal = (url: string, allowPrivate: boolean): string | undefined => {
  const kind = hostKind(new URL(url).hostname)
  return isRefused(kind, allowPrivate) ? `${url} targets ${describeKind(kind)}, not a public one` : undefined
}

/**
 * The check of a webhook's URL at create and update, with the switch in force when the service is
 * built: 400 `Invalid field url: <url> targets …` for a refused target.
 */
export const webhookTargetCheck: Effect.Effect<(url: string) => Effect.Effect<void, InvalidInput>> = Effect.map(
  AllowPrivateWebhookTargets,
  (allowPrivate) => (url) => {
    const refusal = urlRefusal(url, allowPrivate)
    return refusal === undefined ? Effect.void : Effect.fail(invalidField("url", refusal))
  }
)
