import Foundation

/// Reading one property: find its column by the plan, read it typed from the row, and fall back to
/// the row's ``Value`` (and ``ValueConvertible``) only when the typed read does not apply.
///
/// The typed reads return exactly what converting ``ColumnReader/value(at:)`` would, whenever they
/// return at all; every other case (nulls, conversions such as an integer for a `Double`, errors) takes
/// the `Value` path, so both paths decode alike.
extension RecordDecodingState {
    /// The column of the next slot, which must be `key`'s; throws when the reader has none.
    @inline(__always)
    func requiredColumn(_ key: String, _ type: Any.Type) throws -> Int {
        let column = try column(for: key)
        guard column >= 0 else { throw ValueDecoding.missing(key, type, entity: entity) }
        return column
    }

    /// The value at `column` as `T`, or the error naming `key`.
    @inline(never)
    func converted<T: ValueConvertible>(_ row: ReaderBox, _ column: Int, _ key: String, _ type: T.Type) throws -> T {
        let value = row.value(at: column)
        guard let result = T.fromDatabaseValue(value) else {
            throw ValueDecoding.mismatch(key, type, value, entity: entity)
        }
        return result
    }

    /// The value at `column` as `T`, nil for `NULL`, or the error naming `key`.
    @inline(never)
    func convertedIfPresent<T: ValueConvertible>(
        _ row: ReaderBox, _ column: Int, _ key: String, _ type: T.Type
    ) throws -> T? {
        let value = row.value(at: column)
        if value.isNull { return nil }
        guard let result = T.fromDatabaseValue(value) else {
            throw ValueDecoding.mismatch(key, type, value, entity: entity)
        }
        return result
    }

    /// The integer at `column` as `T` when it fits, or the error naming `key`.
    @inline(never)
    func convertedInteger<T: FixedWidthInteger>(
        _ row: ReaderBox, _ column: Int, _ key: String, _ type: T.Type
    ) throws -> T {
        try ValueDecoding.integer(row.value(at: column), as: type, key: key, entity: entity)
    }

    /// Any other type (a `String`-backed enum, `UUID`, …) at `column`, or the error naming `key`.
    @inline(never)
    func convertedValue<T: Decodable>(_ row: ReaderBox, _ column: Int, _ key: String, _ type: T.Type) throws -> T {
        try ValueDecoding.decode(row.value(at: column), as: type, key: key, entity: entity)
    }

    // MARK: Required properties

    @usableFromInline
    func decodeBool(_ key: String) throws -> Bool {
        try bool(atColumn: requiredColumn(key, Bool.self), key)
    }

    /// The Bool at `column`, attribute `key`'s.
    @usableFromInline
    func bool(atColumn column: Int, _ key: String) throws -> Bool {
        try withRow { row in try row.bool(at: column) ?? converted(row, column, key, Bool.self) }
    }

    @usableFromInline
    func decodeString(_ key: String) throws -> String {
        try string(atColumn: requiredColumn(key, String.self), key)
    }

    /// The String at `column`, attribute `key`'s.
    @usableFromInline
    func string(atColumn column: Int, _ key: String) throws -> String {
        try withRow { row in try row.text(at: column) ?? converted(row, column, key, String.self) }
    }

    @usableFromInline
    func decodeDouble(_ key: String) throws -> Double {
        try double(atColumn: requiredColumn(key, Double.self), key)
    }

    /// The Double at `column`, attribute `key`'s.
    @usableFromInline
    func double(atColumn column: Int, _ key: String) throws -> Double {
        try withRow { row in try row.double(at: column) ?? converted(row, column, key, Double.self) }
    }

    @usableFromInline
    func decodeFloat(_ key: String) throws -> Float {
        try float(atColumn: requiredColumn(key, Float.self), key)
    }

    /// The Float at `column`, attribute `key`'s.
    @usableFromInline
    func float(atColumn column: Int, _ key: String) throws -> Float {
        try withRow { row in
            try row.double(at: column).map(Float.init) ?? converted(row, column, key, Float.self)
        }
    }

    @usableFromInline
    func decodeInt64(_ key: String) throws -> Int64 {
        try int64(atColumn: requiredColumn(key, Int64.self), key)
    }

    /// The Int64 at `column`, attribute `key`'s.
    @usableFromInline
    func int64(atColumn column: Int, _ key: String) throws -> Int64 {
        try withRow { row in try row.integer(at: column) ?? converted(row, column, key, Int64.self) }
    }

    @usableFromInline
    func decodeInt(_ key: String) throws -> Int {
        try int(atColumn: requiredColumn(key, Int.self), key)
    }

    /// The Int at `column`, attribute `key`'s.
    @usableFromInline
    func int(atColumn column: Int, _ key: String) throws -> Int {
        try withRow { row in
            try row.integer(at: column).flatMap(Int.init(exactly:)) ?? converted(row, column, key, Int.self)
        }
    }

    @usableFromInline
    func decodeInt32(_ key: String) throws -> Int32 {
        try int32(atColumn: requiredColumn(key, Int32.self), key)
    }

    /// The Int32 at `column`, attribute `key`'s.
    @usableFromInline
    func int32(atColumn column: Int, _ key: String) throws -> Int32 {
        try withRow { row in
            try row.integer(at: column).flatMap(Int32.init(exactly:)) ?? converted(row, column, key, Int32.self)
        }
    }

    /// An integer type without a ``ValueConvertible`` conformance (`Int8`, `UInt`, …).
    func decodeInteger<T: FixedWidthInteger>(_ key: String, _ type: T.Type) throws -> T {
        let column = try requiredColumn(key, type)
        return try withRow { row in
            try row.integer(at: column).flatMap(T.init(exactly:)) ?? convertedInteger(row, column, key, type)
        }
    }

    @usableFromInline
    func decodeDate(_ key: String) throws -> Date {
        try date(atColumn: requiredColumn(key, Date.self), key)
    }

    /// The Date at `column`, attribute `key`'s.
    @usableFromInline
    func date(atColumn column: Int, _ key: String) throws -> Date {
        try withRow { row in try row.date(at: column) ?? converted(row, column, key, Date.self) }
    }

    @usableFromInline
    func decodeData(_ key: String) throws -> Data {
        try data(atColumn: requiredColumn(key, Data.self), key)
    }

    /// The Data at `column`, attribute `key`'s.
    @usableFromInline
    func data(atColumn column: Int, _ key: String) throws -> Data {
        try withRow { row in try row.blob(at: column) ?? converted(row, column, key, Data.self) }
    }

    /// Any other type: dates and data read typed, the rest through ``ValueDecoding/decode(_:as:key:entity:)``.
    func decodeValue<T: Decodable>(_ key: String, _ type: T.Type) throws -> T {
        if T.self == Date.self { return unsafeBitCast(try decodeDate(key), to: T.self) }
        if T.self == Data.self { return unsafeBitCast(try decodeData(key), to: T.self) }
        let column = try requiredColumn(key, type)
        return try withRow { row in try convertedValue(row, column, key, type) }
    }

    // MARK: Optional properties (a missing column or NULL is nil)

    @usableFromInline
    func decodeBoolIfPresent(_ key: String) throws -> Bool? {
        try boolIfPresent(atColumn: column(for: key), key)
    }

    /// The Bool at `column`, attribute `key`'s; nil when the column is missing (-1) or `NULL`.
    @usableFromInline
    func boolIfPresent(atColumn column: Int, _ key: String) throws -> Bool? {
        guard column >= 0 else { return nil }
        return try withRow { row in try row.bool(at: column) ?? convertedIfPresent(row, column, key, Bool.self) }
    }

    @usableFromInline
    func decodeStringIfPresent(_ key: String) throws -> String? {
        try stringIfPresent(atColumn: column(for: key), key)
    }

    /// The String at `column`, attribute `key`'s; nil when the column is missing (-1) or `NULL`.
    @usableFromInline
    func stringIfPresent(atColumn column: Int, _ key: String) throws -> String? {
        guard column >= 0 else { return nil }
        return try withRow { row in try row.text(at: column) ?? convertedIfPresent(row, column, key, String.self) }
    }

    @usableFromInline
    func decodeDoubleIfPresent(_ key: String) throws -> Double? {
        try doubleIfPresent(atColumn: column(for: key), key)
    }

    /// The Double at `column`, attribute `key`'s; nil when the column is missing (-1) or `NULL`.
    @usableFromInline
    func doubleIfPresent(atColumn column: Int, _ key: String) throws -> Double? {
        guard column >= 0 else { return nil }
        return try withRow { row in
            try row.double(at: column) ?? convertedIfPresent(row, column, key, Double.self)
        }
    }

    @usableFromInline
    func decodeFloatIfPresent(_ key: String) throws -> Float? {
        try floatIfPresent(atColumn: column(for: key), key)
    }

    /// The Float at `column`, attribute `key`'s; nil when the column is missing (-1) or `NULL`.
    @usableFromInline
    func floatIfPresent(atColumn column: Int, _ key: String) throws -> Float? {
        guard column >= 0 else { return nil }
        return try withRow { row in
            try row.double(at: column).map(Float.init) ?? convertedIfPresent(row, column, key, Float.self)
        }
    }

    @usableFromInline
    func decodeInt64IfPresent(_ key: String) throws -> Int64? {
        try int64IfPresent(atColumn: column(for: key), key)
    }

    /// The Int64 at `column`, attribute `key`'s; nil when the column is missing (-1) or `NULL`.
    @usableFromInline
    func int64IfPresent(atColumn column: Int, _ key: String) throws -> Int64? {
        guard column >= 0 else { return nil }
        return try withRow { row in
            try row.integer(at: column) ?? convertedIfPresent(row, column, key, Int64.self)
        }
    }

    @usableFromInline
    func decodeIntIfPresent(_ key: String) throws -> Int? {
        try intIfPresent(atColumn: column(for: key), key)
    }

    /// The Int at `column`, attribute `key`'s; nil when the column is missing (-1) or `NULL`.
    @usableFromInline
    func intIfPresent(atColumn column: Int, _ key: String) throws -> Int? {
        guard column >= 0 else { return nil }
        return try withRow { row in
            try row.integer(at: column).flatMap(Int.init(exactly:)) ?? convertedIfPresent(row, column, key, Int.self)
        }
    }

    @usableFromInline
    func decodeInt32IfPresent(_ key: String) throws -> Int32? {
        try int32IfPresent(atColumn: column(for: key), key)
    }

    /// The Int32 at `column`, attribute `key`'s; nil when the column is missing (-1) or `NULL`.
    @usableFromInline
    func int32IfPresent(atColumn column: Int, _ key: String) throws -> Int32? {
        guard column >= 0 else { return nil }
        return try withRow { row in
            try row.integer(at: column).flatMap(Int32.init(exactly:))
                ?? convertedIfPresent(row, column, key, Int32.self)
        }
    }

    func decodeIntegerIfPresent<T: FixedWidthInteger>(_ key: String, _ type: T.Type) throws -> T? {
        let column = try column(for: key)
        guard column >= 0 else { return nil }
        return try withRow { row in
            if let integer = row.integer(at: column), let result = T(exactly: integer) { return result }
            if row.value(at: column).isNull { return nil }
            return try convertedInteger(row, column, key, type)
        }
    }

    func decodeValueIfPresent<T: Decodable>(_ key: String, _ type: T.Type) throws -> T? {
        // Unwrapped before the cast: casting to `T?` would look up the metadata of `Optional<T>`.
        if T.self == Date.self {
            guard let date = try decodeDateIfPresent(key) else { return nil }
            return unsafeBitCast(date, to: T.self)
        }
        if T.self == Data.self {
            guard let data = try decodeDataIfPresent(key) else { return nil }
            return unsafeBitCast(data, to: T.self)
        }
        let column = try column(for: key)
        guard column >= 0 else { return nil }
        return try withRow { row in
            if row.value(at: column).isNull { return nil }
            return try convertedValue(row, column, key, type)
        }
    }

    @usableFromInline
    func decodeDateIfPresent(_ key: String) throws -> Date? {
        try dateIfPresent(atColumn: column(for: key), key)
    }

    /// The Date at `column`, attribute `key`'s; nil when the column is missing (-1) or `NULL`.
    @usableFromInline
    func dateIfPresent(atColumn column: Int, _ key: String) throws -> Date? {
        guard column >= 0 else { return nil }
        return try withRow { row in try row.date(at: column) ?? convertedIfPresent(row, column, key, Date.self) }
    }

    @usableFromInline
    func decodeDataIfPresent(_ key: String) throws -> Data? {
        try dataIfPresent(atColumn: column(for: key), key)
    }

    /// The Data at `column`, attribute `key`'s; nil when the column is missing (-1) or `NULL`.
    @usableFromInline
    func dataIfPresent(atColumn column: Int, _ key: String) throws -> Data? {
        guard column >= 0 else { return nil }
        return try withRow { row in try row.blob(at: column) ?? convertedIfPresent(row, column, key, Data.self) }
    }

    /// Any other ``ValueConvertible`` type (`UUID`, ``Value``, their optionals) through ``Value``: a
    /// missing column is nil for an optional type, an error for any other.
    @usableFromInline
    func decodeConvertible<T: ValueConvertible>(_ key: String, _ type: T.Type) throws -> T {
        try convertible(atColumn: column(for: key), key, type)
    }

    /// A ``ValueConvertible`` value at `column`, attribute `key`'s: a missing column (-1) is nil for an optional
    /// type, an error for any other.
    @usableFromInline
    func convertible<T: ValueConvertible>(atColumn column: Int, _ key: String, _ type: T.Type) throws -> T {
        guard column >= 0 else {
            if T.self is any OptionalValue.Type, let none = T.fromDatabaseValue(.null) { return none }
            throw ValueDecoding.missing(key, type, entity: entity)
        }
        return try withRow { row in try converted(row, column, key, type) }
    }

    /// Whether the next slot, `key`'s, has no column or holds `NULL`.
    func decodeNil(_ key: String) throws -> Bool {
        let column = try column(for: key)
        return column < 0 || withRow { $0.value(at: column).isNull }
    }
}

/// Optional types, told apart at run time.
protocol OptionalValue {}

extension Optional: OptionalValue {}
