// Reads a wire changeset out of parsed JSON, checking every field, and decodes its objects.
import type { JsonObject } from "./json.js";
import {
    describe,
    readArray,
    readCount,
    readInteger,
    readJsonObject,
    readObject,
    readPath,
    readString,
} from "./jsonReader.js";
import { ProtocolViolation } from "./protocolViolation.js";
import { WIRE_CHANGESET_VERSION, type WireChangeset } from "./wireChangeset.js";

/** Turns one of the server's objects into the client's type, e.g. parsing its date strings; throws if it cannot. */
export type ObjectDecoder<T> = (object: JsonObject) => T;

/**
 * The changeset in `value`, its objects decoded by `decode`.
 *
 * @throws {ProtocolViolation} for another version (kind `version`) or a field that is missing or of the
 *   wrong type, or an object `decode` refuses (kind `field`), naming the field.
 */
export function parseChangeset<T>(value: unknown, decode: ObjectDecoder<T>, where = "changeset"): WireChangeset<T> {
    const changeset = readObject(value, where);
    const version = changeset["version"];
    if (version !== WIRE_CHANGESET_VERSION) {
        throw new ProtocolViolation(
            "version",
            `${where}.version is ${describe(version)}; this client reads version ${WIRE_CHANGESET_VERSION}`,
        );
    }
    const transaction = changeset["transaction"];
    const readObjectAt = (item: unknown, at: string): T => decodeObject(item, at, decode);
    const sections = readObject(changeset["sections"], `${where}.sections`);
    const rows = readObject(changeset["rows"], `${where}.rows`);
    return {
        version,
        transaction:
            transaction === undefined || transaction === null ? null : readCount(transaction, `${where}.transaction`),
        countsBefore: readArray(changeset["countsBefore"], `${where}.countsBefore`, readCount),
        countsAfter: readArray(changeset["countsAfter"], `${where}.countsAfter`, readCount),
        sections: {
            deleted: readArray(sections["deleted"], `${where}.sections.deleted`, readInteger),
            inserted: readArray(sections["inserted"], `${where}.sections.inserted`, (item, at) => {
                const insert = readObject(item, at);
                return {
                    index: readInteger(insert["index"], `${at}.index`),
                    name: readString(insert["name"], `${at}.name`),
                    objects: readArray(insert["objects"], `${at}.objects`, readObjectAt),
                };
            }),
            moved: readArray(sections["moved"], `${where}.sections.moved`, (item, at) => {
                const move = readObject(item, at);
                return { from: readInteger(move["from"], `${at}.from`), to: readInteger(move["to"], `${at}.to`) };
            }),
        },
        rows: {
            deleted: readArray(rows["deleted"], `${where}.rows.deleted`, readPath),
            inserted: readArray(rows["inserted"], `${where}.rows.inserted`, (item, at) => {
                const insert = readObject(item, at);
                return {
                    at: readPath(insert["at"], `${at}.at`),
                    object: readObjectAt(insert["object"], `${at}.object`),
                };
            }),
            moved: readArray(rows["moved"], `${where}.rows.moved`, (item, at) => {
                const move = readObject(item, at);
                const object = move["object"];
                return {
                    from: readPath(move["from"], `${at}.from`),
                    to: readPath(move["to"], `${at}.to`),
                    // Absent or null: the row's content did not change.
                    object: object === undefined || object === null ? undefined : readObjectAt(object, `${at}.object`),
                };
            }),
            updated: readArray(rows["updated"], `${where}.rows.updated`, (item, at) => {
                const update = readObject(item, at);
                return {
                    from: readPath(update["from"], `${at}.from`),
                    to: readPath(update["to"], `${at}.to`),
                    object: readObjectAt(update["object"], `${at}.object`),
                };
            }),
        },
    };
}

function decodeObject<T>(value: unknown, where: string, decode: ObjectDecoder<T>): T {
    const object = readJsonObject(value, where);
    try {
        return decode(object);
    } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new ProtocolViolation("field", `${where} cannot be decoded: ${reason}`);
    }
}
