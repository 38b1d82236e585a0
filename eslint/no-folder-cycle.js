// Local ESLint rule `arch/no-folder-cycle`: reports an import (value or type, `import("…")` types too) from one
// folder into another that, through its own imports, reaches back into the first: a circle between folders.
//
// Why it exists: import-x/no-cycle and arch/no-type-only-cycle see circles among files, but two folders can import
// each other with no file circle at all (a.ts → b/B.ts, b/C.ts → a/D.ts). Such a pair is no longer two parts, one
// standing on the other: neither can be read, moved or tested without the other (issue 24). Subfolders count as
// folders of their own, so a folder and its subfolder may not import each other both ways either; what they share
// goes up to the folder (as src/renders/ holds what its runner, allowance, clips and exports share).
//
// The nodes are the folders strictly inside the `roots` (so src/renders and src/renders/runner, not src itself: the
// files at a root, such as src/Server.ts and src/Api.ts, are the composition root and the API's assembly, which
// import every area and are imported by the areas' handlers). Every edge of a circle is reported, at its import.
import path from "node:path"
import { findPath, graphOptions, loadGraph } from "./import-graph.js"

const folderGraphs = new WeakMap()

/** Folder → (folder it imports → first file import that makes the edge), for folders strictly inside the roots. */
const folderGraph = (graph, roots) => {
  const cached = folderGraphs.get(graph)
  if (cached !== undefined) return cached
  const edges = new Map()
  for (const [file, targets] of graph.edges) {
    const from = folderOf(file, roots)
    if (from === undefined) continue
    for (const target of targets) {
      const to = folderOf(target, roots)
      if (to === undefined || to === from) continue
      if (!edges.has(from)) edges.set(from, new Set())
      edges.get(from).add(to)
    }
  }
  folderGraphs.set(graph, edges)
  return edges
}

/** The file's folder, when it is strictly inside one of the roots (a file directly in a root has none). */
const folderOf = (file, roots) => {
  const folder = path.dirname(file)
  return roots.some((root) => folder.startsWith(root + path.sep)) ? folder : undefined
}

export default {
  meta: {
    type: "problem",
    docs: { description: "Forbid an import that closes a circle between folders (subfolders included)" },
    schema: [graphOptions],
    messages: {
      circle: "This import closes a circle between folders: {{route}}. Move what both sides need to a folder both " +
        "stand on, or reach the upper one through a port (docs/architecture.md)."
    }
  },
  create(context) {
    const { tsconfig, roots } = context.options[0]
    const base = path.dirname(path.resolve(tsconfig))
    const rootDirs = roots.map((r) => path.resolve(base, r))
    const graph = loadGraph(path.resolve(tsconfig), rootDirs)
    const filename = path.resolve(context.physicalFilename)
    const here = folderOf(filename, rootDirs)
    if (here === undefined || !graph.edges.has(filename)) return {}
    const folders = folderGraph(graph, rootDirs)
    const rel = (folder) => path.relative(base, folder).split(path.sep).join("/")
    const check = (node, specifier) => {
      if (typeof specifier !== "string") return
      const target = graph.resolve(specifier, filename)
      if (target === undefined) return
      const there = folderOf(target, rootDirs)
      if (there === undefined || there === here) return
      const route = findPath(folders, there, here)
      if (route === undefined) return
      context.report({ node, messageId: "circle", data: { route: [here, ...route].map(rel).join(" → ") } })
    }
    const fromSource = (node) => {
      if (node.source?.type === "Literal") check(node.source, node.source.value)
    }
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: fromSource,
      TSImportType(node) {
        const literal = node.argument?.type === "TSLiteralType" ? node.argument.literal : node.source
        if (literal?.type === "Literal") check(literal, literal.value)
      }
    }
  }
}
