import Foundation

/// The row a ``RowDecodable`` record reads itself from, by attribute name, in its `init(row:)`.
///
/// ```swift
/// title = try row["title"]              // String: a missing column or NULL throws
/// notes = try row["notes"]              // String?: a missing column or NULL is nil
/// let due = try row["due"] as Date?
/// ```
///
/// A row reads any ``ValueConvertible`` type. `String`, `Int`, `Int64`, `Int32`, `Double`, `Float`,
/// `Bool`, `Date`, `Data` and their optionals are read straight from the backend's columns; other types
/// (`UUID`, ``Value``) convert through ``Value``. A row cannot be copied or kept: it is valid only during
/// `init(row:)`.
public struct RecordRow: ~Copyable {
    /// The decoder's state, which outlives every row it hands out.
    @usableFromInline let state: Unmanaged<RecordDecodingState>

    @usableFromInline
    init(state: RecordDecodingState) {
        self.state = .passUnretained(state)
    }

    /// The value of attribute `name`, as `T`.
    ///
    /// Reads of the same attributes in the same order for every row (as an `init(row:)` without
    /// branches makes) find their columns by position after the first row.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` naming the attribute when the row has no
    ///   column for it or holds `NULL` (unless `T` is optional), or its value does not convert to `T`.
    /// - Complexity: O(1).
    @inlinable
    public subscript<T: ValueConvertible>(_ name: String) -> T {
        get throws {
            try state._withUnsafeGuaranteedRef { try $0.read(name, as: T.self) }
        }
    }

    /// Whether the row has a column for attribute `name`.
    ///
    /// Counts as a read (of the attribute's column) for the plan.
    public func contains(_ name: String) -> Bool {
        state._withUnsafeGuaranteedRef { $0.contains(name) }
    }
}

extension RecordDecodingState {
    /// Reads `name` as `T`, specialised in the record's module: for the common types this is one call
    /// to the state's typed decoder for that type.
    @inlinable @inline(__always)
    func read<T: ValueConvertible>(_ name: String, as type: T.Type) throws -> T {
        if T.self == String.self { return unsafeBitCast(try decodeString(name), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try decodeInt64(name), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try decodeInt(name), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try decodeDouble(name), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decodeBool(name), to: T.self) }
        if T.self == Date.self { return unsafeBitCast(try decodeDate(name), to: T.self) }
        if T.self == Data.self { return unsafeBitCast(try decodeData(name), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try decodeInt32(name), to: T.self) }
        if T.self == Float.self { return unsafeBitCast(try decodeFloat(name), to: T.self) }
        if T.self == String?.self { return unsafeBitCast(try decodeStringIfPresent(name), to: T.self) }
        if T.self == Int64?.self { return unsafeBitCast(try decodeInt64IfPresent(name), to: T.self) }
        if T.self == Int?.self { return unsafeBitCast(try decodeIntIfPresent(name), to: T.self) }
        if T.self == Double?.self { return unsafeBitCast(try decodeDoubleIfPresent(name), to: T.self) }
        if T.self == Bool?.self { return unsafeBitCast(try decodeBoolIfPresent(name), to: T.self) }
        if T.self == Date?.self { return unsafeBitCast(try decodeDateIfPresent(name), to: T.self) }
        if T.self == Data?.self { return unsafeBitCast(try decodeDataIfPresent(name), to: T.self) }
        if T.self == Int32?.self { return unsafeBitCast(try decodeInt32IfPresent(name), to: T.self) }
        if T.self == Float?.self { return unsafeBitCast(try decodeFloatIfPresent(name), to: T.self) }
        return try decodeConvertible(name, type)
    }
}
