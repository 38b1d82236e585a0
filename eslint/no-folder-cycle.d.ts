// Types for the rule's test (test/eslint/no-folder-cycle.test.ts), which imports it from TypeScript.
import type { Rule } from "eslint"

declare const rule: Rule.RuleModule
export default rule
