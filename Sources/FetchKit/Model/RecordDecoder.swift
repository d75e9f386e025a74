/// Decodes rows of one entity into records, remembering the column of each key between rows.
///
/// Create one per fetch and call ``decode(from:)`` for each row: after the first row, finding a
/// property's column costs one string comparison instead of a hash lookup.
///
/// ```swift
/// let decoder = RecordDecoder(Task.self)
/// let tasks = try rows.map { try decoder.decode(from: $0) }
/// ```
///
/// A decoder is not thread-safe: use one per task or thread.
public final class RecordDecoder<R: Record> {
    let cache: ColumnCache

    /// Creates a decoder for records of `type`.
    public init(_ type: R.Type = R.self) {
        let entity = R.entity
        self.cache = ColumnCache(entity: entity.name, attributes: entity.attributes.map(\.name))
    }

    /// Decodes one record from `reader`.
    ///
    /// - Throws: ``FetchKitError/recordMapping(entity:detail:)`` naming the property when a column
    ///   is missing for a non-optional property, a value does not convert, or a property is a nested type.
    /// - Complexity: O(*k*) in the number of the record's coding keys.
    public func decode<Reader: ColumnReader>(from reader: Reader) throws -> R {
        cache.begin(layout: reader.columnLayoutIdentity)
        do {
            return try R(from: RowDecoder(reader: reader, cache: cache))
        } catch let error as FetchKitError {
            throw error
        } catch {
            throw FetchKitError.recordMapping(entity: cache.entity, detail: RecordCoding.describe(error))
        }
    }
}

/// The column of each coding key, in the order a record's `init(from:)` asks for them.
///
/// Synthesized `Codable` asks for the same keys in the same order for every row, so the cache is a
/// list walked by a cursor; each entry is checked against the key actually asked for, and a
/// mismatch falls back to the reader's lookup.
final class ColumnCache {
    /// The entity's name, for error messages.
    let entity: String
    /// The entity's attribute names, for `allKeys`.
    let attributes: [String]
    private var layout: ObjectIdentifier?
    private var keys: [String] = []
    private var columns: [Int] = []
    private var cursor = 0

    init(entity: String, attributes: [String]) {
        self.entity = entity
        self.attributes = attributes
    }

    /// Starts a row; forgets every column when the reader's layout differs from the last row's.
    @inline(__always)
    func begin(layout identity: ObjectIdentifier?) {
        cursor = 0
        if identity != layout {
            layout = identity
            keys.removeAll(keepingCapacity: true)
            columns.removeAll(keepingCapacity: true)
        }
    }

    /// The column of `key` in `reader`, or nil when the reader has none.
    @inline(__always)
    func column<Reader: ColumnReader>(of key: String, in reader: Reader) -> Int? {
        let position = cursor
        cursor = position &+ 1
        if position < keys.count, keys[position] == key {
            let column = columns[position]
            return column < 0 ? nil : column
        }
        return lookUp(key, at: position, in: reader)
    }

    private func lookUp<Reader: ColumnReader>(_ key: String, at position: Int, in reader: Reader) -> Int? {
        let column = reader.columnIndex(of: key)
        if position < keys.count {
            keys[position] = key
            columns[position] = column ?? -1
        } else {
            keys.append(key)
            columns.append(column ?? -1)
        }
        return column
    }
}
