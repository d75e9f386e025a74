/// Where a controller's snapshots keep their rows and objects: append-only arrays indexed by a 4-byte
/// handle, shared by every snapshot (each reads only the handles its tree holds).
///
/// When `Object` is ``Row`` the row is stored once, as the object.
struct EntryStorage<Object: Sendable>: Sendable {
    private var objects: AppendOnlyArray<Object>
    /// The rows, when they are not the objects.
    private var rows: AppendOnlyArray<Row>?

    /// Empty storage, where the first `capacity` entries fit without growing.
    init(reservingCapacity capacity: Int = 0) {
        objects = AppendOnlyArray(reservingCapacity: capacity)
        rows = Object.self == Row.self ? nil : AppendOnlyArray(reservingCapacity: capacity)
    }

    /// The number of entries stored, live or not.
    var count: Int { objects.count }

    /// The row stored under `handle`.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    func row(handle: UInt32) -> Row {
        if let rows { return rows[Int(handle)] }
        return unsafeBitCast(objects[Int(handle)], to: Row.self)
    }

    /// The object stored under `handle`.
    ///
    /// - Complexity: O(1).
    func object(handle: UInt32) -> Object { objects[Int(handle)] }

    /// The entry stored under `handle`.
    ///
    /// - Complexity: O(1).
    subscript(handle: UInt32) -> ResultsEntry<Object> {
        ResultsEntry(row: row(handle: handle), object: objects[Int(handle)])
    }

    /// Stores `entry` and returns its handle.
    ///
    /// - Complexity: O(1) amortised.
    mutating func append(_ entry: ResultsEntry<Object>) -> UInt32 { append(row: entry.row, object: entry.object) }

    /// Stores `row` and its `object` and returns their handle.
    ///
    /// - Complexity: O(1) amortised.
    mutating func append(row: Row, object: Object) -> UInt32 {
        precondition(objects.count < Int(UInt32.max), "more than 4 billion stored rows")
        let handle = UInt32(objects.count)
        objects.append(object)
        rows?.append(row)
        return handle
    }
}
