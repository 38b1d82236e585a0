// Writes src/client/OpenApiTypes.ts, the fetch client's types, from the OpenAPI document (`npm run client:types`).
import * as fs from "node:fs"
import * as path from "node:path"
import { clientTypes, clientTypesFile } from "./ClientTypes.js"

fs.writeFileSync(clientTypesFile, await clientTypes())
console.log(`wrote ${path.relative(process.cwd(), clientTypesFile)}`)
