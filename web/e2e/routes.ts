import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** A route of the console as the route table declares it. */
export interface DeclaredRoute {
  name: string;
  path: string;
  requiresAuth: boolean;
  roles: string[] | null;
}

const ROUTE_CONFIG = join(process.cwd(), 'src', 'app', 'route-config.tsx');

function literal(node: ts.Expression | undefined): unknown {
  if (!node) {
    return undefined;
  }
  if (ts.isStringLiteralLike(node)) {
    return node.text;
  }
  if (node.kind === ts.SyntaxKind.TrueKeyword) {
    return true;
  }
  if (node.kind === ts.SyntaxKind.FalseKeyword) {
    return false;
  }
  if (ts.isArrayLiteralExpression(node)) {
    return node.elements.map((element) => literal(element));
  }
  return undefined;
}

function routeOf(object: ts.ObjectLiteralExpression): DeclaredRoute | null {
  const fields = new Map<string, ts.Expression>();
  for (const property of object.properties) {
    if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) {
      fields.set(property.name.text, property.initializer);
    }
  }
  const name = literal(fields.get('name'));
  const path = literal(fields.get('path'));
  if (typeof name !== 'string' || typeof path !== 'string') {
    return null;
  }
  const roles = literal(fields.get('roles'));
  return {
    name,
    path,
    requiresAuth: literal(fields.get('requiresAuth')) !== false,
    // A role list named by a constant (ALL) is every role.
    roles: Array.isArray(roles) && roles.every((role) => typeof role === 'string') ? (roles as string[]) : null,
  };
}

/**
 * The signed-in routes of the console, read from app/route-config.tsx (its APP_ROUTES array) with
 * the TypeScript parser, so a screen added to the table is checked without touching the tests.
 */
export function declaredRoutes(): DeclaredRoute[] {
  const source = ts.createSourceFile(ROUTE_CONFIG, readFileSync(ROUTE_CONFIG, 'utf8'), ts.ScriptTarget.Latest, true);
  const routes: DeclaredRoute[] = [];
  source.forEachChild(function visit(node) {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === 'APP_ROUTES' &&
      node.initializer &&
      ts.isArrayLiteralExpression(node.initializer)
    ) {
      for (const element of node.initializer.elements) {
        const route = ts.isObjectLiteralExpression(element) ? routeOf(element) : null;
        if (route) {
          routes.push(route);
        }
      }
      return;
    }
    node.forEachChild(visit);
  });
  if (routes.length === 0) {
    throw new Error(`no APP_ROUTES found in ${ROUTE_CONFIG}`);
  }
  return routes;
}

/** The parameters (":id") of a route path. */
export function pathParams(path: string): string[] {
  return Array.from(path.matchAll(/:(\w+)/g), (match) => match[1] ?? '');
}
