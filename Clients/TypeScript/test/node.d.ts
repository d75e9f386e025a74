// The parts of Node's test runner and strict assertions these tests use (this machine has no @types/node).

declare module "node:test" {
    type Body = () => void | Promise<void>;
    export function describe(name: string, body: Body): void;
    export function it(name: string, body: Body): void;
}

declare module "node:assert/strict" {
    type ErrorMatcher = RegExp | (new (...args: never[]) => Error) | object;
    function assert(value: unknown, message?: string): asserts value;
    namespace assert {
        function ok(value: unknown, message?: string): asserts value;
        function equal<T>(actual: unknown, expected: T, message?: string): asserts actual is T;
        function notEqual(actual: unknown, expected: unknown, message?: string): void;
        function match(value: string, pattern: RegExp, message?: string): void;
        function deepEqual<T>(actual: unknown, expected: T, message?: string): asserts actual is T;
        function throws(block: () => unknown, error?: ErrorMatcher, message?: string): void;
        function rejects(promise: Promise<unknown>, error?: ErrorMatcher, message?: string): Promise<void>;
    }
    export default assert;
}
