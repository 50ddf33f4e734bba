// Reports promises nobody awaits (C19: the store is asynchronous, and a promise left floating in a
// unit of work runs after its commit): calls in statement position, async functions given where a
// function returning void is expected, promises given where any value goes, `return promise` in try.
// A promise handled on purpose (`.then(ok, failed)`, `.catch(...)`) is not reported; one left alone
// on purpose says why on the line before, in a comment starting `// unawaited:`.
// Run: bun scripts/check-promises.ts [src|test|bench]; test/promises.test.ts runs it over src.
import ts from "typescript";
import { resolve } from "node:path";

const root = resolve(import.meta.dir, "..");

/** Each finding as `file:line what: code`, for the files whose path starts with `only`. */
export function unawaitedPromises(only: string): string[] {
  const found: string[] = [];
  const config = ts.getParsedCommandLineOfConfigFile(`${root}/tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const isPromise = (type: ts.Type) => (type.getSymbol() ?? type.aliasSymbol)?.getName() === "Promise" || (type.isUnion() && type.types.some((t) => t.getSymbol()?.getName() === "Promise"));
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(root) || file.fileName.includes("node_modules")) continue;
    const rel = file.fileName.slice(root.length + 1);
    if (!rel.startsWith(only)) continue;
    const lines = file.getFullText().split("\n");
    const at = (n: ts.Node) => `${rel}:${file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1}`;
    const excused = (n: ts.Node) => /^\s*\/\/ unawaited:/.test(lines[file.getLineAndCharacterOfPosition(n.getStart(file)).line - 1] ?? "");
    const handled = (call: ts.CallExpression): boolean =>
      ts.isPropertyAccessExpression(call.expression) &&
      ((call.expression.name.text === "then" && call.arguments.length === 2) || call.expression.name.text === "catch" ||
        (call.expression.name.text === "finally" && ts.isCallExpression(call.expression.expression) && handled(call.expression.expression)));
    const report = (n: ts.Node, what: string) => {
      if (!excused(n)) found.push(`${at(n)} ${what}`);
    };
    const visit = (node: ts.Node) => {
      if (ts.isExpressionStatement(node) && ts.isCallExpression(node.expression) && isPromise(checker.getTypeAtLocation(node.expression))) {
        if (!handled(node.expression)) report(node, `floating: ${node.getText(file).slice(0, 100)}`);
      }
      // A promise given where anything goes (`one(x)`, `JSON.stringify(x)`, `expect(x)`): a value was meant.
      if (ts.isCallExpression(node) && ts.isCallExpression(node.parent) && node.parent.arguments.includes(node) && isPromise(checker.getTypeAtLocation(node))) {
        const outer = node.parent;
        const callee = outer.expression.getText(file);
        const signature = checker.getResolvedSignature(outer);
        const index = outer.arguments.indexOf(node);
        const param = signature?.getParameters()[Math.min(index, (signature?.getParameters().length ?? 1) - 1)];
        const paramType = param && checker.getTypeOfSymbolAtLocation(param, outer);
        const declared = param?.valueDeclaration && checker.getTypeAtLocation(param.valueDeclaration);
        const loose = (paramType && (paramType.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) !== 0) || (declared && (declared.flags & (ts.TypeFlags.TypeParameter | ts.TypeFlags.Unknown | ts.TypeFlags.Any)) !== 0);
        const after = outer.parent && ts.isPropertyAccessExpression(outer.parent) ? outer.parent.name.text : "";
        if (loose && !/^Promise\.|^expect$/.test(callee) || (callee === "expect" && !["rejects", "resolves"].includes(after))) report(node, `promise as a value: ${outer.getText(file).slice(0, 100)}`);
      }
      // `return promise` inside try: its rejection escapes the catch and the finally runs too soon.
      const returned = node.kind === ts.SyntaxKind.ReturnStatement ? (node as ts.ReturnStatement).expression : undefined;
      const settledAlready = returned !== undefined && /^Promise\.(resolve|reject)\(/.test(returned.getText(file));
      if (ts.isReturnStatement(node) && node.expression && !settledAlready && !ts.isAwaitExpression(node.expression) && isPromise(checker.getTypeAtLocation(node.expression))) {
        for (let n: ts.Node = node.parent; n && !ts.isFunctionLike(n); n = n.parent) {
          if (ts.isTryStatement(n) && (n.catchClause || n.finallyBlock) && node.pos >= n.tryBlock.pos && node.end <= n.tryBlock.end) {
            report(node, `return of a promise inside try: ${node.getText(file).slice(0, 100)}`);
            break;
          }
        }
      }
      if (ts.isMethodDeclaration(node) && ts.isObjectLiteralExpression(node.parent)) {
        const signature = checker.getSignatureFromDeclaration(node);
        const returns = signature && checker.getReturnTypeOfSignature(signature);
        const objectType = checker.getContextualType(node.parent);
        const member = objectType && ts.isIdentifier(node.name) ? checker.getNonNullableType(objectType).getProperty(node.name.text) : undefined;
        const memberType = member && checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(member, node));
        const sig = memberType?.getCallSignatures()[0];
        if (returns && isPromise(returns) && sig && checker.getReturnTypeOfSignature(sig).flags & ts.TypeFlags.Void) report(node, `async method where void expected: ${node.name.getText(file)}`);
      }
      if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) ) {
        const signature = checker.getSignatureFromDeclaration(node as ts.SignatureDeclaration);
        const returns = signature && checker.getReturnTypeOfSignature(signature);
        const callee = ts.isCallExpression(node.parent) ? node.parent.expression.getText(file) : "";
        if (returns && isPromise(returns) && !ts.isMethodDeclaration(node) && !/^describe/.test(callee)) {
          const contextualRaw = checker.getContextualType(node as ts.Expression);
          const contextual = contextualRaw && checker.getNonNullableType(contextualRaw);
          const sig = contextual?.getCallSignatures()[0];
          if (sig && checker.getReturnTypeOfSignature(sig).flags & ts.TypeFlags.Void) report(node, `async where void expected: ${node.getText(file).slice(0, 100)}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
}
return found;
}

if (import.meta.main) for (const line of unawaitedPromises(process.argv[2] ?? "src")) console.log(line);
