/** Any value JSON can carry. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;

/** A JSON object: what the server's projection makes of each record unless a `decode` function says otherwise. */
export interface JsonObject {
    readonly [key: string]: JsonValue;
}
