/**
 * The mutants of one TypeScript module: each is one small change a real bug could make (an operator flipped, a
 * condition forced, a block emptied, a string or list emptied, a return value dropped), found by walking the module's
 * syntax tree with the TypeScript compiler API. The standard mutator set (as Stryker names them), kept to what a
 * bug in a guarantee looks like; type-only code is never mutated (Bun runs TypeScript without checking types).
 */
import ts from 'typescript';

export interface Mutant {
  /** 1-based line of the change. */
  line: number;
  mutator: string;
  start: number;
  end: number;
  original: string;
  replacement: string;
}

const OPERATOR_SWAPS: Partial<Record<ts.SyntaxKind, string[]>> = {
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: ['!=='],
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: ['==='],
  [ts.SyntaxKind.EqualsEqualsToken]: ['!='],
  [ts.SyntaxKind.ExclamationEqualsToken]: ['=='],
  [ts.SyntaxKind.LessThanToken]: ['<=', '>='],
  [ts.SyntaxKind.LessThanEqualsToken]: ['<', '>'],
  [ts.SyntaxKind.GreaterThanToken]: ['>=', '<='],
  [ts.SyntaxKind.GreaterThanEqualsToken]: ['>', '<'],
  [ts.SyntaxKind.AmpersandAmpersandToken]: ['||'],
  [ts.SyntaxKind.BarBarToken]: ['&&'],
  [ts.SyntaxKind.QuestionQuestionToken]: ['&&'],
  [ts.SyntaxKind.PlusToken]: ['-'],
  [ts.SyntaxKind.MinusToken]: ['+'],
  [ts.SyntaxKind.AsteriskToken]: ['/'],
  [ts.SyntaxKind.SlashToken]: ['*'],
};

const METHOD_SWAPS: Record<string, string> = {
  some: 'every',
  every: 'some',
  startsWith: 'endsWith',
  endsWith: 'startsWith',
  min: 'max',
  max: 'min',
  trim: 'trimEnd',
  filter: 'find',
};

/** Inside a type, an import/export clause or a declaration's name: not behaviour. */
function typeOnly(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if (ts.isTypeNode(n) || ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) return true;
    if (ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isEnumDeclaration(n)) return true;
    if (ts.isLiteralTypeNode(n) || ts.isExternalModuleReference(n)) return true;
  }
  return false;
}

const isStringy = (n: ts.Node) =>
  ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n);

/** Every mutant of `source` (the text of the module at `file`). */
export function mutantsOf(file: string, source: string): Mutant[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Mutant[] = [];
  const add = (mutator: string, start: number, end: number, replacement: string) => {
    const original = source.slice(start, end);
    if (original === replacement) return;
    out.push({ line: sf.getLineAndCharacterOfPosition(start).line + 1, mutator, start, end, original, replacement });
  };
  const condition = (expr: ts.Expression | undefined) => {
    if (!expr || typeOnly(expr)) return;
    add('ConditionalExpression', expr.getStart(sf), expr.getEnd(), 'true');
    add('ConditionalExpression', expr.getStart(sf), expr.getEnd(), 'false');
  };

  const visit = (node: ts.Node): void => {
    if (typeOnly(node)) return;
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken;
      const swaps = OPERATOR_SWAPS[op.kind];
      // `+` on strings is concatenation: flipping it only ever makes NaN of a message.
      const stringPlus = op.kind === ts.SyntaxKind.PlusToken && (isStringy(node.left) || isStringy(node.right));
      if (swaps && !stringPlus) for (const s of swaps) add(mutatorOf(op.kind), op.getStart(sf), op.getEnd(), s);
      if (op.kind === ts.SyntaxKind.AmpersandAmpersandToken || op.kind === ts.SyntaxKind.BarBarToken) {
        // Each side of a logical expression forced: the condition a removed clause would leave.
        add(
          'ConditionalExpression',
          node.getStart(sf),
          node.getEnd(),
          source.slice(node.left.getStart(sf), node.left.getEnd()),
        );
        add(
          'ConditionalExpression',
          node.getStart(sf),
          node.getEnd(),
          source.slice(node.right.getStart(sf), node.right.getEnd()),
        );
      }
    } else if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) {
      condition(node.expression);
    } else if (ts.isForStatement(node)) {
      if (node.condition) add('ConditionalExpression', node.condition.getStart(sf), node.condition.getEnd(), 'false');
    } else if (ts.isConditionalExpression(node)) {
      condition(node.condition);
    } else if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
      add(
        'BooleanLiteral',
        node.getStart(sf),
        node.getEnd(),
        source.slice(node.operand.getStart(sf), node.operand.getEnd()),
      );
    } else if (node.kind === ts.SyntaxKind.TrueKeyword) {
      add('BooleanLiteral', node.getStart(sf), node.getEnd(), 'false');
    } else if (node.kind === ts.SyntaxKind.FalseKeyword) {
      add('BooleanLiteral', node.getStart(sf), node.getEnd(), 'true');
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const parent = node.parent;
      const key = parent && (ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent)) && parent.name === node;
      const directive = parent && ts.isExpressionStatement(parent); // 'use strict' and the like
      if (!key && !directive && !ts.isImportTypeNode(parent) && !ts.isElementAccessExpression(parent))
        add('StringLiteral', node.getStart(sf), node.getEnd(), node.text === '' ? '"mutated"' : '""');
    } else if (ts.isArrayLiteralExpression(node) && node.elements.length > 0) {
      add('ArrayDeclaration', node.getStart(sf), node.getEnd(), '[]');
    } else if (ts.isBlock(node) && node.statements.length > 0) {
      add('BlockStatement', node.getStart(sf), node.getEnd(), '{}');
    } else if (ts.isReturnStatement(node) && node.expression) {
      const e = node.expression;
      if (e.kind !== ts.SyntaxKind.UndefinedKeyword && !(ts.isIdentifier(e) && e.text === 'undefined'))
        add('ReturnValue', node.getStart(sf), node.getEnd(), 'return undefined;');
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name;
      // Own keys only: `toString` and the like are on every object's prototype.
      const swap = Object.hasOwn(METHOD_SWAPS, name.text) ? METHOD_SWAPS[name.text] : undefined;
      if (swap) add('MethodExpression', name.getStart(sf), name.getEnd(), swap);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function mutatorOf(kind: ts.SyntaxKind): string {
  if (kind === ts.SyntaxKind.AmpersandAmpersandToken || kind === ts.SyntaxKind.BarBarToken) return 'LogicalOperator';
  if (kind === ts.SyntaxKind.QuestionQuestionToken) return 'LogicalOperator';
  if (
    [ts.SyntaxKind.PlusToken, ts.SyntaxKind.MinusToken, ts.SyntaxKind.AsteriskToken, ts.SyntaxKind.SlashToken].includes(
      kind,
    )
  )
    return 'ArithmeticOperator';
  return 'EqualityOperator';
}
