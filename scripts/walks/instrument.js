const path = require("node:path")
const ts = require("typescript")
const swcJest = require("@swc/jest")

/**
 * The jest transform of `npm run walks`: the plugin's own source (src/, tests and the admin left
 * out) is compiled with a call to `globalThis.__paybrightWalk(file)` at the start of every
 * function body, so that a test can see which of the plugin's files an act passes through, in the
 * order it enters them. Everything else is compiled as `npm test` compiles it.
 */
const root = path.resolve(__dirname, "../..")
const src = path.join(root, "src") + path.sep
const swc = swcJest.createTransformer({
  jsc: { parser: { syntax: "typescript", decorators: true }, target: "es2021" },
})

function traced(file) {
  return (
    file.startsWith(src) &&
    /\.ts$/.test(file) &&
    !file.includes(`${path.sep}__tests__${path.sep}`) &&
    !file.startsWith(path.join(src, "admin"))
  )
}

/** `globalThis.__paybrightWalk?.("<file>")` as a statement. */
function walkCall(factory, relative) {
  return factory.createExpressionStatement(
    factory.createCallChain(
      factory.createPropertyAccessExpression(factory.createIdentifier("globalThis"), "__paybrightWalk"),
      factory.createToken(ts.SyntaxKind.QuestionDotToken),
      undefined,
      [factory.createStringLiteral(relative)]
    )
  )
}

function instrumenter(relative) {
  return (context) => {
    const { factory } = context
    const call = () => walkCall(factory, relative)
    const visit = (node) => {
      // A function's own body (a declaration, an expression, a method, an accessor, a constructor,
      // an arrow with braces) starts with the mark.
      const body = ts.isBlock(node) && node.parent && ts.isFunctionLike(node.parent)
      const visited = ts.visitEachChild(node, visit, context)
      if (body) return factory.updateBlock(visited, [call(), ...visited.statements])
      // An arrow with an expression body becomes one with braces that returns it.
      if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) {
        return factory.updateArrowFunction(
          visited,
          visited.modifiers,
          visited.typeParameters,
          visited.parameters,
          visited.type,
          visited.equalsGreaterThanToken,
          factory.createBlock([call(), factory.createReturnStatement(visited.body)], true)
        )
      }
      return visited
    }
    return (sourceFile) => ts.visitNode(sourceFile, visit)
  }
}

module.exports = {
  process(sourceText, sourcePath, options) {
    if (!traced(sourcePath)) return swc.process(sourceText, sourcePath, options)
    const relative = path.relative(src, sourcePath).split(path.sep).join("/")
    const output = ts.transpileModule(sourceText, {
      fileName: sourcePath,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2021,
        esModuleInterop: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        sourceMap: false,
      },
      transformers: { before: [instrumenter(relative)] },
    })
    return { code: output.outputText }
  },
  getCacheKey(sourceText, sourcePath) {
    return require("node:crypto")
      .createHash("sha1")
      .update("paybright-walks-1\0")
      .update(sourcePath)
      .update("\0")
      .update(sourceText)
      .digest("hex")
  },
}
