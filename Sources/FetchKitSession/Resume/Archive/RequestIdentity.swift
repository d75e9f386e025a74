import FetchKit

/// A request written down as bytes that are the same in every process: two requests have equal identities only
/// when they are equal (entity, predicate with its scope, order, limits, sections, properties), so a state
/// restored from an archive resumes only the request it answered — never another user's scope.
///
/// Every field is written in the request's own order; no `Dictionary` or `Set` order, no `hashValue`. It writes
/// exactly what equality compares: where equality looks past a difference (a key path's offset in the format
/// string) so does the identity; where it cannot be sure (text that differs only in Unicode normalisation), the
/// identities differ, which costs a client a reset, never a wrong list.
struct RequestIdentity: Sendable, Hashable {
    /// The bytes.
    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The identity of `request`.
    init(_ request: AnyFetchRequest) {
        var writer = ArchiveWriter()
        // A field added to `AnyFetchRequest` must be written here (`RequestIdentityTests` lists them).
        writer.string(request.entityName)
        writer.predicate(request.predicate)
        writer.count(request.sortDescriptors.count)
        for descriptor in request.sortDescriptors {
            writer.string(descriptor.key)
            writer.bool(descriptor.ascending)
            writer.bool(descriptor.caseInsensitive)
        }
        writer.optional(request.fetchLimit) { $0.fixed(Int64($1)) }
        writer.fixed(Int64(request.fetchOffset))
        writer.optional(request.sectionNameKeyPath) { $0.string($1) }
        writer.optional(request.propertiesToFetch) { $0.strings($1) }
        writer.strings(request.relationshipKeyPathsForPrefetching)
        bytes = writer.bytes
    }
}
