import m0001 from "./0001_identity.js"
import m0002 from "./0002_streams.js"
import m0003 from "./0003_signing_keys.js"
import m0004 from "./0004_renders.js"
import m0005 from "./0005_brands.js"
import m0006 from "./0006_media.js"

/** Static imports, because the migrator's dynamic import cannot load `.ts` files under vitest. */
export const migrations = {
  "0001_identity": m0001,
  "0002_streams": m0002,
  "0003_signing_keys": m0003,
  "0004_renders": m0004,
  "0005_brands": m0005,
  "0006_media": m0006
}
