/** What is wrong with a message: not JSON, another protocol or changeset version, an unknown type, or a field. */
export type ViolationKind = "json" | "version" | "type" | "field";

/**
 * A message from the server that this client cannot read; its `message` says what and where, e.g.
 * `batch: changeset.rows.inserted[2].at is not a [section, row] pair`.
 */
export class ProtocolViolation extends Error {
    override readonly name = "ProtocolViolation";

    constructor(
        readonly kind: ViolationKind,
        message: string,
    ) {
        super(message);
    }
}
