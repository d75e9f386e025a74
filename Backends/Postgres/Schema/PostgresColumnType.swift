import FetchKitBackendKit

/// The FetchKit attribute type of a PostgreSQL column type, and what the compiler must add to read, compare,
/// order and write it exactly as that attribute type (``NativeColumn``; `nil` for the standard types
/// `bigint`, `double precision`, `text`, `boolean`, `timestamptz`, `bytea`).
///
/// - `smallint`, `integer`, `bigint` → integer; writes out of the column's range are refused before they
///   reach the server. `numeric(p, s)` with no digits after the point (`s ≤ 0`) and at most 18 digits →
///   integer, read through `CAST(… AS BIGINT)`.
/// - `real`, `double precision` → double. Any other `numeric` → double, read, compared and ordered through
///   `CAST(… AS DOUBLE PRECISION)`: digits beyond a double's 15–17 are lost.
/// - `text`, `varchar(n)` → text (longer text is refused). `char(n)` → text read through `CAST(… AS TEXT)`,
///   which drops the trailing blanks PostgreSQL pads it with (and compares without them). `citext`, enums,
///   `json`, `jsonb` → text, compared and ordered as their text (not case-insensitively, not by declaration
///   order), written through a cast. `uuid` → text in canonical lowercase form; key lookups compare the
///   column itself, so its index serves them.
/// - `timestamptz` → date; `timestamp` (without time zone) → date, read and written as UTC; `date` → date
///   at midnight UTC (a written date keeps only its UTC day).
/// - `boolean` → bool, `bytea` → binary.
struct PostgresColumnType {
    let attributeType: AttributeType
    let native: NativeColumn?

    /// The type of `column` of `table`.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` naming the column and its type when FetchKit
    ///   does not support it (arrays, `interval`, geometric types, ranges, domains, …).
    init(_ column: PostgresTableColumn, table: String) throws {
        let name = SQLDialect.postgres.quote(column.typeSchema) + "." + SQLDialect.postgres.quote(column.typeName)
        let length = column.typeModifier >= 4 ? column.typeModifier - 4 : nil
        func native(
            _ reading: NativeColumn.Reading = .native, _ writing: NativeColumn.Binding = .plain,
            key: NativeColumn.KeyComparison? = nil, comparing: NativeColumn.Binding = .plain,
            limit: NativeColumn.Limit? = nil
        ) -> NativeColumn {
            NativeColumn(
                typeName: name, reading: reading, writing: writing, keyComparison: key,
                comparisonBinding: comparing, limit: limit)
        }
        switch (column.typeKind, column.typeSchema == "pg_catalog" ? column.typeName : nil) {
        case ("b", "int8"?): self.init(.integer, nil)
        case ("b", "int4"?): self.init(.integer, native(limit: .integer(Int64(Int32.min)...Int64(Int32.max))))
        case ("b", "int2"?): self.init(.integer, native(limit: .integer(Int64(Int16.min)...Int64(Int16.max))))
        case ("b", "numeric"?):
            guard let length else {
                self.init(.double, native(.cast))
                return
            }
            let precision = length >> 16 & 0xffff
            // The scale is an 11-bit signed number (negative scales round to tens, hundreds, …).
            let scale = (length & 0x7ff ^ 0x400) - 0x400
            let limit = NativeColumn.Limit.decimal(precision: precision, scale: scale)
            self.init(scale <= 0 && precision - scale <= 18 ? .integer : .double, native(.cast, limit: limit))
        case ("b", "float8"?): self.init(.double, nil)
        case ("b", "float4"?): self.init(.double, native(limit: .float32))
        case ("b", "text"?): self.init(.text, nil)
        case ("b", "varchar"?): self.init(.text, length.map { native(limit: .characters($0, padded: false)) })
        case ("b", "bpchar"?):
            self.init(
                .text,
                native(
                    .cast, key: .unpaddedText, comparing: .cast,
                    limit: length.map { .characters($0, padded: true) }))
        case ("b", "uuid"?): self.init(.text, native(.cast, .cast, key: .canonicalUUID, comparing: .cast))
        case ("b", "json"?), ("b", "jsonb"?): self.init(.text, native(.cast, .cast))
        case ("b", "bool"?): self.init(.bool, nil)
        case ("b", "bytea"?): self.init(.binary, nil)
        case ("b", "timestamptz"?): self.init(.date, nil)
        case ("b", "timestamp"?):
            self.init(.date, native(.utcTimestamp, .utcTimestamp, key: .always, comparing: .utcTimestamp))
        case ("b", "date"?): self.init(.date, native(.utcDate, .utcDate, key: .always, comparing: .utcTimestamp))
        case ("e", _): self.init(.text, native(.cast, .cast))
        case ("b", nil) where column.typeName == "citext": self.init(.text, native(.cast, .cast))
        default:
            throw FetchKitError.schemaMismatch(
                table: table,
                detail:
                    "column \(SafeText.quoted(column.name)) is \(column.displayType), a type FetchKit does not "
                    + "read or write "
                    + "(use integer, numeric, real, double precision, text, varchar, char, citext, uuid, json, jsonb, "
                    + "an enum, boolean, date, timestamp, timestamptz or bytea)")
        }
    }

    private init(_ attributeType: AttributeType, _ native: NativeColumn?) {
        self.attributeType = attributeType
        self.native = native
    }
}
