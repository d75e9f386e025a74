/// The storage of a to-one relationship property of an `@Entity` record: the related record's key, and
/// the record when it is loaded.
///
/// A record fetched without its related record keeps the key, so writing it back never clears the
/// foreign key. Setting the property to a record takes that record's key; setting it to `nil` clears it.
public struct ToOne<Destination: EntityRecord>: Sendable {
    /// The related record's primary key (`.null` when there is none).
    public var key: Value
    /// The related record, when loaded.
    public var record: Destination?

    /// Refers to `record` (its key is its first attribute value, the primary key), or to nothing.
    public init(_ record: Destination?) {
        self.record = record
        self.key = record.map { $0.attributeValues().first ?? .null } ?? .null
    }

    /// Refers to the record whose primary key is `key`, not loaded.
    public init(key: Value) {
        self.key = key
        self.record = nil
    }
}

extension ToOne: Equatable where Destination: Equatable {}

extension ToOne: Hashable where Destination: Hashable {}
