import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { blockedReason, checkUrl, type Lookup, type UrlPolicyOptions } from "../../src/domain/UrlPolicy.js"

const check = (url: string, options: Partial<UrlPolicyOptions> = {}) =>
  Effect.runPromise(Effect.either(checkUrl(url, { allowPrivate: false, at: ["url"], ...options })))

const refusal = async (url: string, options: Partial<UrlPolicyOptions> = {}) => {
  const result = await check(url, options)
  if (Either.isRight(result)) throw new Error(`${url} was accepted`)
  return result.left
}

/** Answers from a table, so no test touches the network; an unknown name fails like getaddrinfo ENOTFOUND. */
const table = (entries: Record<string, ReadonlyArray<string>>): Lookup => (hostname) => {
  const found = entries[hostname]
  return found ? Promise.resolve(found.map((address) => ({ address }))) : Promise.reject(new Error("ENOTFOUND"))
}

describe("blockedReason", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "shared (CGNAT)"],
    ["100.127.255.255", "shared (CGNAT)"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fc00::1", "unique local"],
    ["fd12:3456:789a::1", "unique local"],
    ["fe80::1", "link-local"],
    ["febf::1", "link-local"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a01:203", "private"],
    ["0:0:0:0:0:ffff:c0a8:101", "private"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["192.0.0.1", "IETF protocol assignment"],
    ["192.0.0.255", "IETF protocol assignment"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.254", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["ff02::1", "multicast"],
    ["ff0e::101", "multicast"],
    ["fec0::1", "site-local"],
    ["feff::1", "site-local"],
    ["::7f00:1", "loopback"],
    ["::10.1.2.3", "private"],
    // 6to4 around private and loopback IPv4.
    ["2002:c0a8:101::1", "private"],
    ["2002:7f00:1::", "loopback"],
    ["2002:a9fe:a9fe::1", "link-local"],
    // Teredo: the client is the bitwise NOT of the last 32 bits (~10.0.0.1 = f5ff:fffe), the server the next 32 after 2001:0.
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "private"],
    ["2001:0:4136:e378::80ff:fffe", "loopback"],
    ["2001:0:a00:1::", "private"]
  ])("%s is %s", (address, reason) => {
    expect(blockedReason(address)).toBe(reason)
  })

  it.each([
    "8.8.8.8",
    "93.184.215.14",
    "172.15.255.255",
    "172.32.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "169.253.255.255",
    "11.0.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "fbff::1",
    "192.0.1.1",
    "191.255.255.255",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "fe7f::1",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
    "2001:db9::1",
    "2001:4860:4860::8888"
  ])("%s is public", (address) => {
    expect(blockedReason(address)).toBeUndefined()
  })
})

describe("checkUrl", () => {
  it("accepts a public address, http or https", async () => {
    for (const url of ["https://93.184.215.14/hooks", "http://8.8.8.8:8080/x?y=1", "https://[2606:4700:4700::1111]/"]) {
      const result = await check(url)
      expect(Either.isRight(result), url).toBe(true)
    }
  })

  it("refuses anything but an absolute http(s) URL as schema_validation at the field", async () => {
    const urls = ["not a url", "/relative", "ftp://93.184.215.14/x", "javascript:alert(1)", "file:///etc/passwd", ""]
    for (const url of urls) {
      const error = await refusal(url)
      expect(error._tag, url).toBe("SchemaValidation")
      expect(error.details.map((d) => d.path)).toEqual(["/url"])
    }
  })

  it("refuses private, loopback and link-local literals in every spelling the URL parser accepts", async () => {
    const urls = [
      "http://127.0.0.1/hook",
      "http://127.1/",
      "http://0x7f000001/",
      "http://2130706433/",
      "http://10.1.2.3:9000/",
      "https://172.20.0.1/",
      "https://192.168.0.10/",
      "http://169.254.169.254/latest/meta-data",
      "http://100.100.100.100/",
      "http://0.0.0.0/",
      "http://0/",
      "http://[::1]/",
      "http://[::]/",
      "http://[fd00::1]/",
      "http://[fe80::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:10.0.0.1]/",
      "http://192.0.0.8/",
      "http://198.18.0.1/",
      "http://224.0.0.251/",
      "http://255.255.255.255/",
      "http://240.1.2.3/",
      "http://[ff02::1]/",
      "http://[fec0::1]/",
      "http://[2002:a00:1::1]/",
      "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/"
    ]
    for (const url of urls) {
      const error = await refusal(url)
      expect(error._tag, url).toBe("BlockedUrl")
      expect(error.details.map((d) => d.path)).toEqual(["/url"])
    }
  })

  it("refuses localhost, which resolves to loopback", async () => {
    const error = await refusal("http://localhost:3000/hook")
    expect(error._tag).toBe("BlockedUrl")
    expect(error.message).toContain("loopback")
  })

  it("refuses a name when any address it resolves to is private", async () => {
    const lookup = table({ "mixed.test": ["93.184.215.14", "10.0.0.7"], "public.test": ["93.184.215.14"] })
    const error = await refusal("https://mixed.test/hook", { lookup })
    expect(error._tag).toBe("BlockedUrl")
    expect(error.message).toContain("10.0.0.7")
    expect(Either.isRight(await check("https://public.test/hook", { lookup }))).toBe(true)
  })

  it("refuses a name that cannot be resolved", async () => {
    const error = await refusal("https://nowhere.test/hook", { lookup: table({}) })
    expect(error._tag).toBe("BlockedUrl")
    expect(error.message).toContain("could not be resolved")
    const empty = await refusal("https://empty.test/hook", { lookup: table({ "empty.test": [] }) })
    expect(empty.message).toContain("could not be resolved")
  })

  it("allows private addresses when ALLOW_PRIVATE_URLS is set, but still wants an http(s) URL", async () => {
    for (const url of ["http://127.0.0.1:8080/hook", "http://localhost/", "http://[::1]/", "http://10.0.0.1/"]) {
      expect(Either.isRight(await check(url, { allowPrivate: true })), url).toBe(true)
    }
    expect((await refusal("not a url", { allowPrivate: true }))._tag).toBe("SchemaValidation")
  })

  it("has no detail outside a request", async () => {
    const result = await Effect.runPromise(Effect.either(checkUrl("http://127.0.0.1/", { allowPrivate: false })))
    expect(Either.isLeft(result) && result.left.details).toEqual([])
  })
})
