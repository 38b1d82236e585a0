// Local ESLint rule `arch/no-type-only-cycle`: reports an `import type` (or an import whose specifiers are all
// `type`, or an `import("…")` type) that closes a file-level import cycle.
//
// Why it exists: `import-x/no-cycle` skips type-only imports, both at the import it checks and while it walks the
// graph, and has no option to count them. This rule covers exactly the imports it skips, so together they report
// every cycle in src/ and cluster/: a cycle of value imports only is reported by import-x/no-cycle, a cycle with at
// least one type-only edge is reported here, at that edge.
//
// The graph (eslint/import-graph.js) holds the files tsconfig.json includes under the folders given in the rule's
// `roots` option; every import of theirs (value or type) is an edge.
import path from "node:path"
import { findPath, graphOptions, loadGraph } from "./import-graph.js"

const isTypeOnlyImport = (node) =>
  node.importKind === "type" ||
  (node.specifiers.length > 0 && node.specifiers.every((s) => s.type === "ImportSpecifier" && s.importKind === "type"))

export default {
  meta: {
    type: "problem",
    docs: { description: "Forbid type-only imports that close a file-level import cycle (import-x/no-cycle skips them)" },
    schema: [graphOptions],
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
