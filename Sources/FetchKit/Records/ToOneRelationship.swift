/// A to-one relationship of a record that a request can prefetch: its name and the property that holds the
/// related record.
///
/// The `@Entity` macro lists every to-one relationship in ``EntityRecord/toOneRelationships``; a record
/// written by hand lists those it lets requests prefetch:
///
/// ```swift
/// static var toOneRelationships: [ToOneRelationship<Todo>] { [ToOneRelationship("category", \.category)] }
/// ```
public struct ToOneRelationship<Root: EntityRecord>: Sendable {
    /// The relationship's name in the entity.
    public let name: String
    /// Makes what reads one batch of fetched rows: it sets a record's related record from the row's prefetched
    /// columns (`category.id`, `category.name`), and leaves the record as decoded when the row has none or they
    /// are `NULL` (no related row: the foreign key the record holds stays).
    let makeReader: @Sendable () -> (inout Root, Row) throws -> Void

    /// The relationship `name`, whose related record the property at `keyPath` holds.
    public init<Destination: EntityRecord>(
        _ name: String, _ keyPath: any WritableKeyPath<Root, Destination?> & Sendable
    ) {
        self.name = name
        makeReader = {
            let names = Destination.entity.attributes.map(\.name)
            let layout = RowLayout(names: names)
            let decoder = RecordDecoder(Destination.self)
            var columns: (of: RowLayout, at: [Int])?
            return { record, row in
                if columns?.of !== row.layout {
                    let found = names.compactMap { row.layout.index(of: name + "." + $0) }
                    columns = (row.layout, found.count == names.count ? found : [])
                }
                guard let indexes = columns?.at, let first = indexes.first, row.value(at: first) != .null else {
                    return
                }
                let related = Row(layout: layout, values: indexes.map { row.value(at: $0) })
                record[keyPath: keyPath] = try decoder.decode(from: related)
            }
        }
    }
}

extension EntityRecord {
    /// The to-one relationships a request can prefetch: none unless the type lists them (the macro lists them
    /// all).
    public static var toOneRelationships: [ToOneRelationship<Self>] { [] }

    /// Sets the related records of `records` (of this type, stored as `R`) that `rows`, the rows they were
    /// decoded from, carry prefetched; nothing to do, at the cost of one lookup per relationship, when the rows
    /// carry none.
    static func attachPrefetched<R>(to records: inout [R], from rows: [Row]) throws {
        guard let layout = rows.first?.layout else { return }
        let prefetched = toOneRelationships.filter { relationship in
            layout.names.contains { $0.hasPrefix(relationship.name + ".") }
        }
        for relationship in prefetched {
            let read = relationship.makeReader()
            for index in records.indices {
                guard var record = records[index] as? Self else { continue }
                try read(&record, rows[index])
                if let stored = record as? R { records[index] = stored }
            }
        }
    }
}
