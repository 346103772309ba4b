/**
 * The nesting depth of request data, bounded before any recursive walk sees it. kube-apiserver's decoders stop at
 * 10,000 levels; Go's stacks grow, JavaScript's do not: V8 serializes (JSON.stringify) about 4,000 levels and
 * clones (structuredClone) about 1,900, and the YAML writer about 600, from an empty stack. Every recursive walk
 * over request data here (clone, merge, diff, field sets, validation, conversion, encoding) is safe below
 * {@link maxNestingDepth}, with room to spare for the stack a request already uses: bodies and patch results
 * deeper than that are refused with 400 before anything recurses. Decoders of any encoding (JSON, YAML, protobuf)
 * bound what they read by it, in the server and in the client alike.
 */
/** The deepest nesting of objects and lists accepted in a body or a patched object. */
export const maxNestingDepth = 256;
