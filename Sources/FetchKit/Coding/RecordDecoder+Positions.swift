import Foundation

/// Positional reads: attribute *i* of the entity (the primary key is 0) is read from its column, which the
/// state finds once per layout, with no name compared per row. The `@Entity` macro's `init(row:)` reads this
/// way.
extension RecordDecodingState {
    /// The column of the attribute at `position`, -1 when the reader has none.
    @inlinable @inline(__always)
    func column(atPosition position: Int) throws -> Int {
        if position < positions.count { return positions[position] }
        return try locate(position)
    }

    /// Finds every attribute's column for this layout, then the one at `position`.
    @usableFromInline @inline(never)
    func locate(_ position: Int) throws -> Int {
        guard position >= 0, position < attributes.count else {
            throw FetchKitError.recordMapping(
                entity: entity, detail: "no attribute at position \(position): the entity has \(attributes.count)")
        }
        if positions.isEmpty {
            positions = ContiguousArray(withRow { row in attributes.map { row.columnIndex(of: $0) ?? -1 } })
        }
        return positions[position]
    }

    /// The column of the attribute at `position`, which must have one.
    @inlinable @inline(__always)
    func requiredColumn(atPosition position: Int, _ type: Any.Type) throws -> Int {
        let column = try column(atPosition: position)
        if column < 0 { throw missing(atPosition: position, type) }
        return column
    }

    /// The error for an attribute the reader has no column for.
    @usableFromInline @inline(never)
    func missing(atPosition position: Int, _ type: Any.Type) -> FetchKitError {
        ValueDecoding.missing(attributes[position], type, entity: entity)
    }

    /// Reads the attribute at `position`, named `name`, as `T`: for the common types, one typed read of its column.
    @inlinable @inline(__always)
    func read<T: ValueConvertible>(position: Int, _ name: String, as type: T.Type) throws -> T {
        if T.self == String.self {
            let column = try requiredColumn(atPosition: position, T.self)
            return unsafeBitCast(try string(atColumn: column, name), to: T.self)
        }
        if T.self == Int64.self {
            let column = try requiredColumn(atPosition: position, T.self)
            return unsafeBitCast(try int64(atColumn: column, name), to: T.self)
        }
        if T.self == Int.self {
            let column = try requiredColumn(atPosition: position, T.self)
            return unsafeBitCast(try int(atColumn: column, name), to: T.self)
        }
        if T.self == Double.self {
            let column = try requiredColumn(atPosition: position, T.self)
            return unsafeBitCast(try double(atColumn: column, name), to: T.self)
        }
        if T.self == Bool.self {
            let column = try requiredColumn(atPosition: position, T.self)
            return unsafeBitCast(try bool(atColumn: column, name), to: T.self)
        }
        if T.self == Date.self {
            let column = try requiredColumn(atPosition: position, T.self)
            return unsafeBitCast(try date(atColumn: column, name), to: T.self)
        }
        return try readOther(position: position, name, as: type)
    }

    /// The less common types and the optionals.
    @inlinable
    func readOther<T: ValueConvertible>(position: Int, _ name: String, as type: T.Type) throws -> T {
        let column = try column(atPosition: position)
        if T.self == String?.self {
            return unsafeBitCast(try stringIfPresent(atColumn: column, name), to: T.self)
        }
        if T.self == Int64?.self {
            return unsafeBitCast(try int64IfPresent(atColumn: column, name), to: T.self)
        }
        if T.self == Int?.self {
            return unsafeBitCast(try intIfPresent(atColumn: column, name), to: T.self)
        }
        if T.self == Double?.self {
            return unsafeBitCast(try doubleIfPresent(atColumn: column, name), to: T.self)
        }
        if T.self == Bool?.self {
            return unsafeBitCast(try boolIfPresent(atColumn: column, name), to: T.self)
        }
        if T.self == Date?.self {
            return unsafeBitCast(try dateIfPresent(atColumn: column, name), to: T.self)
        }
        if T.self == Data?.self {
            return unsafeBitCast(try dataIfPresent(atColumn: column, name), to: T.self)
        }
        if column >= 0 {
            if T.self == Data.self { return unsafeBitCast(try data(atColumn: column, name), to: T.self) }
            if T.self == Int32.self {
                return unsafeBitCast(try int32(atColumn: column, name), to: T.self)
            }
            if T.self == Float.self {
                return unsafeBitCast(try float(atColumn: column, name), to: T.self)
            }
        }
        if T.self == Int32?.self {
            return unsafeBitCast(try int32IfPresent(atColumn: column, name), to: T.self)
        }
        if T.self == Float?.self {
            return unsafeBitCast(try floatIfPresent(atColumn: column, name), to: T.self)
        }
        return try convertible(atColumn: column, name, type)
    }
}
