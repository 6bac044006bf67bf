import { assert, describe, it } from "@effect/vitest"
import {
  addressKind,
  AllowPrivateWebhookTargets,
  hostKind,
  InvalidInput,
  isRefused,
  parseIpv4,
  parseIpv6,
  type TargetKind,
  urlRefusal,
  webhookTargetCheck
} from "@wms/core"
import { Effect } from "effect"
import * as fc from "fast-check"

/** The kind of a URL's host, as the check at create and update sees it: after `new URL`. */
const kindOf = (url: string) => hostKind(new URL(url).hostname)

const urls: Record<TargetKind, ReadonlyArray<string>> = {
  loopback: [
    "http://127.0.0.1/",
    "http://127.1.2.3:8080/x",
    "http://localhost:5432/",
    "http://LOCALHOST./",
    "http://api.localhost/",
    "http://a.b.localhost./",
    "http://[::1]:9/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://2130706433:9/",
    "http://0x7f.1/",
    "http://017700000001/",
    "http://0x7f000001/",
    "http://127.1/",
    "http://127.0.0.1./",
    "http://user:pass@127.0.0.1/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[0:0:0:0:0:ffff:127.0.0.2]/",
    "http://[::ffff:0:127.0.0.1]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::127.0.0.1]/",
    "http://[2002:7f00:1::]/"
  ],
  private: [
    "http://10.0.0.1/",
    "http://10.255.255.255/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://100.127.255.255/",
    "http://167772161/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:c0a8:101]/",
    "http://[::10.0.0.1]/",
    "http://[64:ff9b:1::10.0.0.1]/",
    "http://[fec0::1]/"
  ],
  "link-local": [
    "http://169.254.0.1/",
    "http://169.254.255.255/",
    "http://[fe80::1]/",
    "http://[febf:ffff::1]/",
    "http://[::ffff:169.254.1.1]/"
  ],
  "unique-local": ["http://[fc00::1]/", "http://[fd12:3456:789a::1]/", "http://[fdff:ffff::1]/"],
  unspecified: [
    "http://0.0.0.0:9/",
    "http://0/",
    "http://0.1.2.3/",
    "http://[::]/",
    "http://[::ffff:0.0.0.0]/",
    "http://[::0.0.0.2]/"
  ],
  multicast: ["http://224.0.0.1/", "http://239.255.255.255/", "http://[ff02::1]/", "http://[::ffff:224.0.0.251]/"],
  broadcast: ["http://255.255.255.255/", "http://4294967295/", "http://[::ffff:255.255.255.255]/"],
  metadata: [
    "http://169.254.169.254/latest/meta-data/",
    "http://2852039166/",
    "http://0xa9.0xfe.0xa9.0xfe/",
    "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[64:ff9b::169.254.169.254]/",
    "http://[fd00:ec2::254]/",
    "http://169.254.170.2/v2/credentials",
    "http://100.100.100.200/",
    "http://192.0.0.192/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://METADATA.GOOGLE.INTERNAL./",
    "http://metadata/",
    "http://metadata.goog/",
    "http://instance-data.ec2.internal/"
  ],
  reserved: [
    "http://240.0.0.1/",
    "http://254.255.255.255/",
    "http://192.0.0.8/",
    "http://192.0.2.1/",
    "http://198.18.0.1/",
    "http://198.51.100.7/",
    "http://203.0.113.9/",
    "http://[2001:db8::1]/",
    "http://[100::1]/",
    "http://[::8.8.8.8]/"
  ],
  public: [
    "http://93.184.216.34/",
    "https://example.com/hook",
    "https://hooks.example.com:8443/x?y=1",
    "http://8.8.8.8/",
    "http://1.1.1.1/",
    "http://9.255.255.255/",
    "http://11.0.0.1/",
    "http://100.63.255.255/",
    "http://100.128.0.1/",
    "http://126.255.255.255/",
    "http://128.0.0.1/",
    "http://169.253.255.255/",
    "http://169.255.0.1/",
    "http://172.15.255.255/",
    "http://172.32.0.1/",
    "http://192.167.255.255/",
    "http://192.169.0.1/",
    "http://223.255.255.255/",
    "http://[2606:2800:220:1:248:1893:25c8:1946]/",
    "http://[::ffff:93.184.216.34]/",
    "http://[64:ff9b::93.184.216.34]/",
    "http://[2002:5db8:d822::1]/",
    "http://[fbff::1]/",
    "http://[fe7f::1]/",
    "http://localhost.example.com/",
    "http://notlocalhost/",
    "http://metadata.google.internal.example.com/",
    "http://receiver.test/"
  ]
}

describe("webhook targets", () => {
  for (const [kind, list] of Object.entries(urls)) {
    it(`classifies ${kind} hosts, numeric and IPv6 forms included`, () => {
      for (const url of list) assert.strictEqual(kindOf(url), kind, url)
    })
  }

  it("refuses every kind but public; with private targets allowed, still cloud metadata", () => {
    for (const kind of Object.keys(urls) as Array<TargetKind>) {
      assert.strictEqual(isRefused(kind, false), kind !== "public", kind)
      assert.strictEqual(isRefused(kind, true), kind === "metadata", kind)
    }
  })

  it("names the URL and what it targets", () => {
    assert.strictEqual(
      urlRefusal("http://2130706433:9/", false),
      "http://2130706433:9/ targets a loopback address, not a public one"
    )
    assert.strictEqual(
      urlRefusal("http://169.254.169.254/latest/meta-data/", true),
      "http://169.254.169.254/latest/meta-data/ targets a cloud metadata address, not a public one"
    )
    assert.strictEqual(
      urlRefusal("http://[fd00::1]/", false),
      "http://[fd00::1]/ targets a unique-local address, not a public one"
    )
    assert.isUndefined(urlRefusal("http://localhost:5432/", true))
    assert.isUndefined(urlRefusal("https://example.com/hook", false))
  })

  it("classifies resolved addresses as the resolver writes them", () => {
    assert.strictEqual(addressKind("127.0.0.1"), "loopback")
    assert.strictEqual(addressKind("::ffff:127.0.0.1"), "loopback")
    assert.strictEqual(addressKind("::FFFF:7F00:1"), "loopback")
    assert.strictEqual(addressKind("fe80::1%eth0"), "link-local")
    assert.strictEqual(addressKind("10.1.2.3"), "private")
    assert.strictEqual(addressKind("93.184.216.34"), "public")
    assert.strictEqual(addressKind("2606:4700::6810:84e5"), "public")
    for (const text of ["localhost", "1.2.3", "1.2.3.4.5", "01.2.3.4", "256.1.1.1", "1.2.3.-4", "0x7f.0.0.1", ""]) {
      assert.isUndefined(addressKind(text), text)
    }
    const notIpv6 = ["1:2:3:4:5:6:7:8:9", "1::2::3", ":1::", "1:2:3:4:5:6:7:8::", "::ffff:1.2.3.4.5", "1.2.3.4::"]
    for (const text of [...notIpv6, "12345::", "g::"]) {
      assert.isUndefined(addressKind(text), text)
    }
  })

  it("parses addresses to their bytes", () => {
    assert.deepStrictEqual(parseIpv4("192.168.0.255"), [192, 168, 0, 255])
    assert.deepStrictEqual(parseIpv6("::"), Array(16).fill(0))
    assert.deepStrictEqual(parseIpv6("1:2:3:4:5:6:7::"), [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0])
    assert.deepStrictEqual(parseIpv6("::ffff:1.2.3.4"), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4])
    assert.deepStrictEqual(parseIpv6("fe80::abcd:1"), [0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xab, 0xcd, 0, 1])
  })

  it("gives an IPv4 address in any form and its IPv6 embeddings the kind of the address", () => {
    const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255))
    fc.assert(fc.property(octets, ([a, b, c, d]) => {
      const dotted = `${a}.${b}.${c}.${d}`
      const kind = addressKind(dotted)!
      const integer = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d
      const hex = (n: number) => n.toString(16)
      assert.strictEqual(kindOf(`http://${integer}/`), kind)
      assert.strictEqual(kindOf(`http://0x${hex(a)}.${b}.0${c.toString(8)}.${d}/`), kind)
      assert.strictEqual(kindOf(`http://[::ffff:${dotted}]/`), kind)
      assert.strictEqual(kindOf(`http://[64:ff9b::${dotted}]/`), kind)
      assert.strictEqual(addressKind(`::ffff:${hex((a << 8) | b)}:${hex((c << 8) | d)}`), kind)
    }))
  })

  it.effect("refuses at create and update with a 400 naming the URL, as the switch says", () =>
    Effect.gen(function*() {
      const check = yield* webhookTargetCheck
      const refused = yield* Effect.flip(check("http://[::1]:9/"))
      assert.instanceOf(refused, InvalidInput)
      assert.strictEqual(
        refused.message,
        "Invalid field url: http://[::1]:9/ targets a loopback address, not a public one"
      )
      yield* check("https://example.com/hook")
      const allowing = yield* Effect.provideService(webhookTargetCheck, AllowPrivateWebhookTargets, true)
      yield* allowing("http://[::1]:9/")
      const metadata = yield* Effect.flip(allowing("http://metadata.google.internal/"))
      assert.strictEqual(
        metadata.message,
        "Invalid field url: http://metadata.google.internal/ targets a cloud metadata address, not a public one"
      )
    }))
})
