import { Effect } from "effect"
import * as dns from "node:dns"
import * as net from "node:net"
import { BlockedUrl, detailAt, SchemaValidation } from "./Errors.js"

export type Lookup = (hostname: string) => Promise<ReadonlyArray<{ readonly address: string }>>

export interface UrlPolicyOptions {
  /** CONTRACT.md `ALLOW_PRIVATE_URLS`. */
  readonly allowPrivate: boolean
  /** Where the URL sits in the request body, for the error detail; none outside a request. */
  readonly at?: ReadonlyArray<string | number> | undefined
  readonly lookup?: Lookup | undefined
}

const LOOKUP_TIMEOUT = "5 seconds"

const systemLookup: Lookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true })

const ipv4Ranges: ReadonlyArray<readonly [string, number, string]> = [
  ["0.0.0.0", 8, "unspecified"],
  ["127.0.0.0", 8, "loopback"],
  ["10.0.0.0", 8, "private"],
  ["172.16.0.0", 12, "private"],
  ["192.168.0.0", 16, "private"],
  ["169.254.0.0", 16, "link-local"],
  ["100.64.0.0", 10, "shared (CGNAT)"],
  ["192.0.0.0", 24, "IETF protocol assignment"],
  ["198.18.0.0", 15, "benchmarking"],
  ["224.0.0.0", 4, "multicast"],
  ["255.255.255.255", 32, "broadcast"],
  ["240.0.0.0", 4, "reserved"]
]

const ipv4ToInt = (address: string) => address.split(".").reduce((n, part) => n * 256 + Number(part), 0)

const inRange = (value: number, base: string, bits: number) => {
  const size = 2 ** (32 - bits)
  return Math.floor(value / size) === Math.floor(ipv4ToInt(base) / size)
}

const classifyIpv4 = (value: number): string | undefined =>
  ipv4Ranges.find(([base, bits]) => inRange(value, base, bits))?.[2]

/** Eight 16-bit groups; `net.isIPv6` has vouched for the text. */
const ipv6Groups = (address: string): Array<number> => {
  let text = address.replace(/%.*$/, "")
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (tail) {
    const v4 = ipv4ToInt(tail[1]!)
    text = text.slice(0, -tail[1]!.length) + `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const [head = "", rest] = text.split("::")
  const parse = (s: string) => s === "" ? [] : s.split(":").map((g) => parseInt(g, 16))
  const left = parse(head)
  const right = rest === undefined ? [] : parse(rest)
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
}

const classifyIpv6 = (address: string): string | undefined => {
  const g = ipv6Groups(address)
  const embedded = g[6]! * 65536 + g[7]!
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0)
  if (zeroTo(8)) return "unspecified"
  if (zeroTo(7) && g[7] === 1) return "loopback"
  if ((g[0]! & 0xfe00) === 0xfc00) return "unique local"
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local"
  if ((g[0]! & 0xffc0) === 0xfec0) return "site-local"
  if ((g[0]! & 0xff00) === 0xff00) return "multicast"
  // IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96) and NAT64 (64:ff9b::/96) all reach the IPv4 address inside.
  if (zeroTo(5) && (g[5] === 0xffff || g[5] === 0)) return classifyIpv4(embedded)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyIpv4(embedded)
  // 6to4 (2002::/16) carries its IPv4 router in the next 32 bits; relays route to it.
  if (g[0] === 0x2002) return classifyIpv4(g[1]! * 65536 + g[2]!)
  // Teredo (2001::/32): the server's IPv4 in the next 32 bits, the client's as the bitwise NOT of the last 32.
  if (g[0] === 0x2001 && g[1] === 0) return classifyIpv4(g[2]! * 65536 + g[3]!) ?? classifyIpv4(~embedded >>> 0)
  return undefined
}

/** Why an IP address is not one the service talks to, or undefined when it is public. */
export const blockedReason = (address: string): string | undefined =>
  net.isIPv4(address) ? classifyIpv4(ipv4ToInt(address)) : net.isIPv6(address) ? classifyIpv6(address) : undefined

const blocked = (message: string, at: UrlPolicyOptions["at"]) =>
  new BlockedUrl({ message, details: at === undefined ? [] : [detailAt(at, message, "publicAddress")] })

/** An absolute http(s) URL, or a schema_validation failure pointing at the field. */
export const parseHttpUrl = (raw: string, at: ReadonlyArray<string | number> = []) => {
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  if (url !== undefined && (url.protocol === "http:" || url.protocol === "https:")) return Effect.succeed(url)
  const message = "Expected an absolute http: or https: URL."
  return Effect.fail(new SchemaValidation({ message, details: [detailAt(at, message, "url")] }))
}

/**
 * Refuses a URL whose host is, or resolves to, a loopback, private, link-local or otherwise internal address
 * unless private addresses are allowed. Called when an address is set and again before every delivery, since
 * what a name resolves to can change.
 */
export const requirePublicUrl = Effect.fn("UrlPolicy.requirePublicUrl")(function*(url: URL, options: UrlPolicyOptions) {
  if (options.allowPrivate) return url
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1")
  const addresses = net.isIP(host) !== 0
    ? [host]
    : yield* Effect.tryPromise(() => (options.lookup ?? systemLookup)(host)).pipe(
      Effect.timeout(LOOKUP_TIMEOUT),
      Effect.map((found) => found.map((a) => a.address)),
      Effect.orElseSucceed((): ReadonlyArray<string> => [])
    )
  if (addresses.length === 0) return yield* blocked(`The host ${host} could not be resolved.`, options.at)
  for (const address of addresses) {
    const reason = blockedReason(address)
    if (reason !== undefined) {
      const what = address === host ? host : `${host} resolves to ${address}, which`
      return yield* blocked(`${what} is a ${reason} address; the service does not call such addresses.`, options.at)
    }
  }
  return url
})

/** `parseHttpUrl` then `requirePublicUrl`: the whole check of an address the service will call. */
export const checkUrl = (raw: string, options: UrlPolicyOptions) =>
  Effect.flatMap(parseHttpUrl(raw, options.at), (url) => requirePublicUrl(url, options))
