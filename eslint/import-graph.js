// The import graph the architecture rules share (arch/no-type-only-cycle, arch/no-folder-cycle): the files tsconfig.json
// includes under the given roots, each with every file of those roots it imports (value or type, `import("…")` types
// too), resolved by TypeScript's own module resolution (so `./Foo.js` is `./Foo.ts`). Built once per ESLint process
// from the files on disk, and kept for the whole run.
import path from "node:path"
import ts from "typescript"

const graphs = new Map()

export const loadGraph = (tsconfigPath, roots) => {
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
export const findPath = (edges, start, goal) => {
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


/** The options of a rule that reads the graph: the tsconfig whose files it holds, and the folders it covers. */
export const graphOptions = {
  type: "object",
  properties: {
    tsconfig: { type: "string" },
    roots: { type: "array", items: { type: "string" }, minItems: 1 }
  },
  required: ["tsconfig", "roots"],
  additionalProperties: false
}
