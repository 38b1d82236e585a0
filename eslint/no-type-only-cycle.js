// Local ESLint rule `arch/no-type-only-cycle`: reports an `import type` (or an import whose specifiers are all
// `type`, or an `import("…")` type) that closes a file-level import cycle.
//
// Why it exists: `import-x/no-cycle` skips type-only imports, both at the import it checks and while it walks the
// graph, and has no option to count them. This rule covers exactly the imports it skips, so together they report
// every cycle in src/ and cluster/: a cycle of value imports only is reported by import-x/no-cycle, a cycle with at
// least one type-only edge is reported here, at that edge.
//
// The graph holds the files tsconfig.json includes under the folders given in the rule's `roots` option; every
// import of theirs (value or type) is an edge, resolved by TypeScript's own module resolution (so `./Foo.js` is
// `./Foo.ts`). It is built once per ESLint process from the files on disk.
import path from "node:path"
import ts from "typescript"

const graphs = new Map()

const loadGraph = (tsconfigPath, roots) => {
  const key = `${tsconfigPath}\0${roots.join("\0")}`
  const cached = graphs.get(key)
  if (cached !== undefined) return cached
  const config = ts.readConfigFile(tsconfigPath, ts.sys.readFile)
  if (config.error !== undefined) {
    throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, "\n"))
  }
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, path.dirname(tsconfigPath))
  const options = parsed.options
  const cache = ts.createModuleResolutionCache(path.dirname(tsconfigPath), (s) => s, options)
  const inRoots = (file) => roots.some((root) => file.startsWith(root + path.sep))
  const resolve = (specifier, from) => {
    const mode = ts.getImpliedNodeFormatForFile(from, cache.getPackageJsonInfoCache(), ts.sys, options)
    const resolved = ts.resolveModuleName(specifier, from, options, ts.sys, cache, undefined, mode).resolvedModule
    if (resolved === undefined || resolved.isExternalLibraryImport === true) return undefined
    const file = path.resolve(resolved.resolvedFileName)
    return inRoots(file) ? file : undefined
  }
  const edges = new Map()
  for (const file of parsed.fileNames.map((f) => path.resolve(f)).filter(inRoots)) {
    const text = ts.sys.readFile(file) ?? ""
    const targets = new Set()
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolve(fileName, file)
      if (target !== undefined && target !== file) targets.add(target)
    }
    edges.set(file, targets)
  }
  const graph = { edges, resolve }
  graphs.set(key, graph)
  return graph
}

// Shortest path start → … → goal over all edges, or undefined.
const findPath = (edges, start, goal) => {
  const previous = new Map([[start, undefined]])
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift()
    if (node === goal) {
      const route = []
      for (let at = goal; at !== undefined; at = previous.get(at)) route.unshift(at)
      return route
    }
    for (const next of edges.get(node) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, node)
        queue.push(next)
      }
    }
  }
  return undefined
}

const isTypeOnlyImport = (node) =>
  node.importKind === "type" ||
  (node.specifiers.length > 0 && node.specifiers.every((s) => s.type === "ImportSpecifier" && s.importKind === "type"))

export default {
  meta: {
    type: "problem",
    docs: { description: "Forbid type-only imports that close a file-level import cycle (import-x/no-cycle skips them)" },
    schema: [
      {
        type: "object",
        properties: {
          tsconfig: { type: "string" },
          roots: { type: "array", items: { type: "string" }, minItems: 1 }
        },
        required: ["tsconfig", "roots"],
        additionalProperties: false
      }
    ],
    messages: { cycle: "Type-only import closes an import cycle: {{route}}" }
  },
  create(context) {
    const { tsconfig, roots } = context.options[0]
    const base = path.dirname(path.resolve(tsconfig))
    const graph = loadGraph(path.resolve(tsconfig), roots.map((r) => path.resolve(base, r)))
    const filename = path.resolve(context.physicalFilename)
    if (!graph.edges.has(filename)) return {}
    const rel = (file) => path.relative(base, file)
    const check = (node, specifier) => {
      const target = graph.resolve(specifier, filename)
      if (target === undefined) return
      const route = findPath(graph.edges, target, filename)
      if (route === undefined) return
      context.report({ node, messageId: "cycle", data: { route: [filename, ...route].map(rel).join(" → ") } })
    }
    return {
      ImportDeclaration(node) {
        if (isTypeOnlyImport(node)) check(node.source, node.source.value)
      },
      TSImportType(node) {
        const literal = node.argument?.type === "TSLiteralType" ? node.argument.literal : node.source
        if (literal?.type === "Literal" && typeof literal.value === "string") check(literal, literal.value)
      }
    }
  }
}
