// ESLint 9 flat config. Its job is to enforce the architecture of src/ and cluster/ (which folder may import which,
// and no import cycles); the style rules are typescript-eslint's `recommended` without type information, minus the
// few that would rewrite existing code; formatting is dprint through @effect/eslint-plugin (`npm run format` rewrites).
//
// The architecture, as import-x/no-restricted-paths zones (one allow-list per kind of file, turned into "everything
// of ours except what is allowed"):
//   src/domain/**         shared values: imports nothing of ours
//   src/Config.ts         domain only
//   src/http/**           the HTTP edge: domain, ports, Config, observability
//   src/drawing/**, src/storage/**  ports: domain, Config, the port itself
//   src/sql/**            domain, Config, migrations/**
//   src/observability/**  domain, Config, itself
//   areas                 every other folder directly under src/ (identity, templates, streams, brands, media,
//                         channels, publishing, delivery, posts, …):
//                         domain, http, ports, sql, Config, observability, src/Api.ts, any area's files, EXCEPT
//                         another area's repositories (*Repo.ts, *Query.ts), handlers (*Http.ts) and entity
//                         behaviours (*EntityLive.ts)
//   src/Api.ts            areas' *Api.ts contracts, http, domain
//   src/cli/**            src/Api.ts, areas' *Api.ts contracts, http, domain, receiver, client, itself
//   src/client/**         src/Api.ts, domain, itself (the typed client exported as `clipwright/client`)
//   src/delivery/receiver/**  domain, itself (the shipped webhook receiver, a client-side tool like cli; it is
//                         exported as `clipwright/receiver`)
//   src/Server.ts, src/main.ts, cluster/**  the composition root: anything
// Cycles: import-x/no-cycle for value imports, arch/no-type-only-cycle (eslint/no-type-only-cycle.js) for the
// type-only imports import-x/no-cycle skips, and arch/no-folder-cycle (eslint/no-folder-cycle.js) for circles
// between folders under src/ (subfolders included), which need no file cycle. Service ids: arch/tag-id
// (eslint/tag-id.js) wants `Context.Tag("clipwright/<folder under src>/<class>")`.
import fs from "node:fs"
import path from "node:path"
import js from "@eslint/js"
import { defineConfig, globalIgnores } from "eslint/config"
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript"
import { importX } from "eslint-plugin-import-x"
import tseslint from "typescript-eslint"
import noFolderCycle from "./eslint/no-folder-cycle.js"
import noTypeOnlyCycle from "./eslint/no-type-only-cycle.js"
import tagId from "./eslint/tag-id.js"
import effect from "@effect/eslint-plugin"

const root = import.meta.dirname
// no-restricted-paths matches absolute paths; every entry must be a glob (a plain path in `except` is refused).
const abs = (glob) => path.join(root, glob)

// Folders directly under src/ that are not areas. Every other folder there is an area, present or future.
const infrastructure = ["domain", "http", "drawing", "storage", "sql", "observability", "cli", "client"]
const areaGlob = `src/!(${infrastructure.join("|")})/**/*`
const areas = fs
  .readdirSync(path.join(root, "src"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !infrastructure.includes(entry.name))
  .map((entry) => entry.name)
  .sort()

// The local rules (eslint/): one plugin object, as flat config refuses two objects under one plugin name.
const arch = { rules: { "no-type-only-cycle": noTypeOnlyCycle, "no-folder-cycle": noFolderCycle, "tag-id": tagId } }

const ours = "{src,cluster,migrations}/**/*"
const kinds = {
  domain: "src/domain/**/*",
  config: "src/@(Config).ts",
  api: "src/@(Api).ts",
  http: "src/http/**/*",
  drawing: "src/drawing/**/*",
  storage: "src/storage/**/*",
  sql: "src/sql/**/*",
  observability: "src/observability/**/*",
  cli: "src/cli/**/*",
  client: "src/client/**/*",
  receiver: "src/delivery/receiver/**/*",
  migrations: "migrations/**/*",
  areas: areaGlob,
  areaContracts: `src/!(${infrastructure.join("|")})/**/*Api.ts`
}

// A zone that lets files matching `target` import only `allowed` among our own files (src/, cluster/, migrations/).
const allowOnly = (target, allowed, message) => ({
  target: abs(target),
  from: abs(ours),
  except: allowed.map(abs),
  message
})

const areaInternals = "*@(Repo|Query|Http|EntityLive).ts"

const architectureZones = [
  allowOnly(kinds.domain, [kinds.domain], "src/domain/ imports nothing of ours."),
  allowOnly(kinds.config, [kinds.domain], "src/Config.ts may import only src/domain/."),
  allowOnly(
    kinds.http,
    [kinds.http, kinds.domain, kinds.drawing, kinds.storage, kinds.config, kinds.observability],
    "src/http/ may import domain, ports (drawing, storage), Config and observability."
  ),
  allowOnly(kinds.drawing, [kinds.drawing, kinds.domain, kinds.config], "src/drawing/ (a port) may import domain, Config and itself."),
  allowOnly(kinds.storage, [kinds.storage, kinds.domain, kinds.config], "src/storage/ (a port) may import domain, Config and itself."),
  allowOnly(kinds.sql, [kinds.sql, kinds.domain, kinds.config, kinds.migrations], "src/sql/ may import domain, Config and migrations/."),
  allowOnly(
    kinds.observability,
    [kinds.observability, kinds.domain, kinds.config],
    "src/observability/ may import domain, Config and itself."
  ),
  allowOnly(
    kinds.api,
    [kinds.areaContracts, kinds.http, kinds.domain],
    "src/Api.ts may import the areas' *Api.ts contracts, http and domain."
  ),
  allowOnly(
    kinds.cli,
    [kinds.cli, kinds.api, kinds.areaContracts, kinds.http, kinds.domain, kinds.receiver, kinds.client],
    "src/cli/ may import src/Api.ts, the areas' *Api.ts contracts, http, domain, receiver and client."
  ),
  allowOnly(
    kinds.client,
    [kinds.client, kinds.api, kinds.domain],
    "src/client/ (shipped to integrators as clipwright/client) may import only src/Api.ts, domain and itself."
  ),
  allowOnly(kinds.receiver, [kinds.receiver, kinds.domain], "src/delivery/receiver/ may import only domain and itself."),
  allowOnly(
    kinds.areas,
    [
      kinds.areas,
      kinds.domain,
      kinds.http,
      kinds.drawing,
      kinds.storage,
      kinds.sql,
      kinds.config,
      kinds.observability,
      kinds.api
    ],
    "An area (src/<area>/) may import domain, http, ports, sql, Config, observability, src/Api.ts and areas."
  ),
  // Another area's repositories, handlers and entity behaviours are private to it.
  ...areas.flatMap((area) => {
    const others = areas.filter((other) => other !== area)
    return others.length === 0
      ? []
      : [
          {
            target: abs(`src/${area}/**/*`),
            from: abs(`src/@(${others.join("|")})/**/${areaInternals}`),
            message: `Another area's *Repo.ts, *Query.ts, *Http.ts and *EntityLive.ts are private to it (src/${area}/ may not import them).`
          }
        ]
  })
]

export default defineConfig([
  // src/client/OpenApiTypes.ts is openapi-typescript's output, checked against the document by its own test.
  globalIgnores(["dist/", "node_modules/", "data/", "coverage/", "src/client/OpenApiTypes.ts"]),

  {
    files: ["**/*.{js,mjs,cjs,ts,mts,cts,tsx}"],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: {
        console: "readonly",
        process: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly"
      }
    },
    rules: {
      // Effect code uses `any` in generic positions on purpose; the type checker (tsc --noEmit) is the judge.
      "@typescript-eslint/no-explicit-any": "off",
      // `Effect.fn`/`Effect.gen` bodies and `pipeline` sinks are generators that need not yield.
      "require-yield": "off",
      // The file-name sanitizers match control characters on purpose.
      "no-control-regex": "off",
      // A `let` assigned once but read by a closure declared before the assignment cannot be a `const`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }]
    }
  },

  // Architecture: src/ and cluster/ only.
  {
    files: ["src/**/*.{ts,tsx}", "cluster/**/*.ts"],
    plugins: {
      "import-x": importX,
      arch
    },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js"],
      // Keep parsed modules for the whole run (the default 30 s lifetime lets no-cycle re-parse files on a slow run).
      "import-x/cache": { lifetime: "∞" },
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts", ".cts"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: path.join(root, "tsconfig.json") })]
    },
    rules: {
      // If resolution ever breaks, this fails loudly instead of the zone and cycle rules silently seeing nothing.
      "import-x/no-unresolved": "error",
      "import-x/no-restricted-paths": ["error", { basePath: root, zones: architectureZones }],
      "import-x/no-cycle": "error",
      "import-x/no-self-import": "error",
      "arch/no-type-only-cycle": ["error", { tsconfig: path.join(root, "tsconfig.json"), roots: ["src", "cluster"] }],
      "arch/no-folder-cycle": ["error", { tsconfig: path.join(root, "tsconfig.json"), roots: ["src"] }]
    }
  },

  // Service ids name their file's folder: `Context.Tag("clipwright/<folder under src>/<class>")` (eslint/tag-id.js).
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { arch },
    rules: { "arch/tag-id": ["error", { root: path.join(root, "src") }] }
  },

  // Formatting: dprint through ESLint (`npm run format` rewrites, `npm run lint` fails on unformatted code).
  {
    files: ["**/*.{ts,mts,cts,tsx}"],
    plugins: { "@effect": effect },
    rules: {
      "@effect/dprint": [
        "error",
        {
          config: {
            indentWidth: 2,
            lineWidth: 120,
            semiColons: "asi",
            quoteStyle: "alwaysDouble",
            trailingCommas: "never",
            operatorPosition: "maintain",
            "arrowFunction.useParentheses": "force",
            "module.sortImportDeclarations": "caseInsensitive",
            "importDeclaration.sortNamedImports": "caseInsensitive",
            "exportDeclaration.sortNamedExports": "caseInsensitive"
          }
        }
      ]
    }
  }
])
