// The few parts of autocannon 9's programmatic API the benchmark uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events"

  export interface RawRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
  }

  export interface RequestSpec extends RawRequest {
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest | undefined
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>
    ) => void
  }

  export interface Options {
    url: string
    connections?: number
    duration?: number
    amount?: number
    pipelining?: number
    timeout?: number
    method?: string
    headers?: Record<string, string>
    body?: string
    requests?: Array<RequestSpec>
  }

  export interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p90: number
    p99: number
    p999: number
  }

  export interface Result {
    title?: string
    url: string
    duration: number
    connections: number
    errors: number
    timeouts: number
    mismatches: number
    non2xx: number
    resets: number
    "1xx": number
    "2xx": number
    "3xx": number
    "4xx": number
    "5xx": number
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    statusCodeStats: Record<string, { count: number }>
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop: () => void
  }

  function autocannon(options: Options): Instance
  export default autocannon
}
