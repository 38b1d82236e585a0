import m0001 from "./0001_identity.js"
import m0002 from "./0002_streams.js"
import m0003 from "./0003_signing_keys.js"
import m0004 from "./0004_renders.js"
import m0005 from "./0005_brands.js"
import m0006 from "./0006_media.js"
import m0007 from "./0007_feeds.js"
import m0008 from "./0008_channels.js"
import m0009 from "./0009_subscriptions.js"
import m0010 from "./0010_credentials.js"
import m0011 from "./0011_ingest.js"
import m0012 from "./0012_pipeline.js"
import m0013 from "./0013_handover.js"
import m0014 from "./0014_queues.js"
import m0015 from "./0015_template_clearances.js"
import m0016 from "./0016_trace_parent.js"
import m0017 from "./0017_sweeps.js"
import m0018 from "./0018_blob_sweeps.js"
import m0019 from "./0019_attempt_headers.js"
import m0020 from "./0020_ingest_queue.js"
import m0021 from "./0021_render_draws.js"
import m0022 from "./0022_people.js"
import m0023 from "./0023_render_extras.js"
import m0024 from "./0024_approval_decisions.js"

/** Static imports, because the migrator's dynamic import cannot load `.ts` files under vitest. */
export const migrations = {
  "0001_identity": m0001,
  "0002_streams": m0002,
  "0003_signing_keys": m0003,
  "0004_renders": m0004,
  "0005_brands": m0005,
  "0006_media": m0006,
  "0007_feeds": m0007,
  "0008_channels": m0008,
  "0009_subscriptions": m0009,
  "0010_credentials": m0010,
  "0011_ingest": m0011,
  "0012_pipeline": m0012,
  "0013_handover": m0013,
  "0014_queues": m0014,
  "0015_template_clearances": m0015,
  "0016_trace_parent": m0016,
  "0017_sweeps": m0017,
  "0018_blob_sweeps": m0018,
  "0019_attempt_headers": m0019,
  "0020_ingest_queue": m0020,
  "0021_render_draws": m0021,
  "0022_people": m0022,
  "0023_render_extras": m0023,
  "0024_approval_decisions": m0024
}
