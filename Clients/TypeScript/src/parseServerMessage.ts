// Reads one WebSocket message from the server: checks the protocol version, the type and every field.
import type { JsonObject } from "./json.js";
import { describe, readInteger, readObject, readString } from "./jsonReader.js";
import { parseChangeset, type ObjectDecoder } from "./parseChangeset.js";
import { ProtocolViolation } from "./protocolViolation.js";
import {
    PROTOCOL_VERSION,
    SERVER_LIST_STATUSES,
    type ServerListStatus,
    type ServerMessage,
    type SessionError,
} from "./serverMessage.js";

/**
 * The server's message in `data` (a WebSocket message's text), its objects decoded by `decode` (without one,
 * they stay the JSON objects the server sent).
 *
 * ```ts
 * const message = parseServerMessage(event.data);
 * if (message.type === "batch") sections = applyChangeset(sections, message.changeset);
 * ```
 *
 * @throws {ProtocolViolation} when `data` is not a JSON object (kind `json`), speaks another protocol or
 *   changeset version (`version`), has an unknown type (`type`), or a field is missing or wrong (`field`);
 *   its message says which.
 */
export function parseServerMessage<T = JsonObject>(
    data: unknown,
    decode: ObjectDecoder<T> = (object) => object as unknown as T,
): ServerMessage<T> {
    const message = readObject(parseJson(data), "the message");
    const version = message["v"];
    if (version !== PROTOCOL_VERSION) {
        throw new ProtocolViolation(
            "version",
            `the message's protocol version is ${describe(version)}; this client speaks version ${PROTOCOL_VERSION}`,
        );
    }
    const type = message["type"];
    switch (type) {
        case "results":
        case "batch":
        case "resumed":
            return {
                v: PROTOCOL_VERSION,
                type,
                token: readString(message["token"], `${type}.token`),
                changeset: parseChangeset(message["changeset"], decode, `${type}.changeset`),
            };
        case "reset":
            return { v: PROTOCOL_VERSION, type, reason: readString(message["reason"], "reset.reason") };
        case "moved": {
            const error = message["error"];
            return {
                v: PROTOCOL_VERSION,
                type,
                id: readInteger(message["id"], "moved.id"),
                ...(error === undefined || error === null ? {} : { error: readError(error, "moved.error") }),
            };
        }
        case "status":
            return { v: PROTOCOL_VERSION, type, status: readStatus(message["status"]) };
        case "error":
        case "refused":
            return { v: PROTOCOL_VERSION, type, error: readError(message["error"], `${type}.error`) };
        default:
            throw new ProtocolViolation("type", `the message's type ${describe(type)} is not one this client knows`);
    }
}

function parseJson(data: unknown): unknown {
    if (typeof data !== "string") {
        const what = typeof data === "object" ? "binary data" : typeof data;
        throw new ProtocolViolation("json", `a message is JSON text, not ${what}`);
    }
    try {
        return JSON.parse(data);
    } catch {
        const start = data.length > 40 ? `${data.slice(0, 37)}...` : data;
        throw new ProtocolViolation("json", `a message is not JSON: ${JSON.stringify(start)}`);
    }
}

function readError(value: unknown, where: string): SessionError {
    const error = readObject(value, where);
    return {
        code: readString(error["code"], `${where}.code`),
        message: readString(error["message"], `${where}.message`),
    };
}

function readStatus(value: unknown): ServerListStatus {
    const status = SERVER_LIST_STATUSES.find((known) => known === value);
    if (status === undefined) {
        const known = SERVER_LIST_STATUSES.join(", ");
        throw new ProtocolViolation("field", `status.status is not one of ${known}: ${describe(value)}`);
    }
    return status;
}
