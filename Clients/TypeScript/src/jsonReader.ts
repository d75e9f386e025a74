// Checks the shape of parsed JSON, field by field. Each function takes the value and where it is (e.g.
// `changeset.rows.deleted[0]`), and throws a ProtocolViolation of kind "field" that names that place.
import type { JsonObject } from "./json.js";
import { ProtocolViolation } from "./protocolViolation.js";

/** A JSON object whose fields are still unchecked. */
export type UncheckedObject = { readonly [key: string]: unknown };

export function readObject(value: unknown, where: string): UncheckedObject {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw mistake(where, "an object", value);
    }
    return value as UncheckedObject;
}

/** A JSON object as the server sent it (its values are JSON by construction: they came out of JSON.parse). */
export function readJsonObject(value: unknown, where: string): JsonObject {
    return readObject(value, where) as JsonObject;
}

export function readArray<U>(value: unknown, where: string, readItem: (item: unknown, where: string) => U): U[] {
    if (!Array.isArray(value)) throw mistake(where, "an array", value);
    return value.map((item: unknown, index) => readItem(item, `${where}[${index}]`));
}

export function readString(value: unknown, where: string): string {
    if (typeof value !== "string") throw mistake(where, "a string", value);
    return value;
}

export function readInteger(value: unknown, where: string): number {
    if (!Number.isInteger(value)) throw mistake(where, "an integer", value);
    return value as number;
}

export function readCount(value: unknown, where: string): number {
    const count = readInteger(value, where);
    if (count < 0) throw mistake(where, "a count (0 or more)", value);
    return count;
}

/** `[section, row]`: two integers. */
export function readPath(value: unknown, where: string): readonly [number, number] {
    if (!Array.isArray(value) || value.length !== 2 || !value.every((item) => Number.isInteger(item))) {
        throw mistake(where, "a [section, row] pair", value);
    }
    return [value[0] as number, value[1] as number];
}

function mistake(where: string, expected: string, value: unknown): ProtocolViolation {
    return new ProtocolViolation("field", `${where} is not ${expected}: ${describe(value)}`);
}

/** A short description of a value, for error messages: never the whole of a large one. */
export function describe(value: unknown): string {
    if (value === undefined) return "missing";
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
