import FetchKitBackendKit

/// A SQLite column's type affinity, derived from its declared type by SQLite's own rules.
enum SQLiteAffinity: String, Sendable, Hashable {
    case integer = "INTEGER"
    case text = "TEXT"
    case blob = "BLOB"
    case real = "REAL"
    case numeric = "NUMERIC"

    /// The affinity SQLite gives a column declared `declaredType` (section 3.1 of "Datatypes In SQLite").
    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.isEmpty {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }

    /// The affinities whose columns read and write an attribute of `type` correctly: the one of the
    /// dialect's own declared type, plus the usual alternatives (`REAL` for doubles, which keeps every
    /// value except the sign of `-0.0`; `NUMERIC` for integers, booleans and dates).
    static func accepted(for type: AttributeType, declaredByDialect declared: String) -> Set<SQLiteAffinity> {
        var accepted: Set<SQLiteAffinity> = [SQLiteAffinity(declaredType: declared)]
        switch type {
        case .integer, .bool, .date: accepted.formUnion([.integer, .numeric])
        case .double: accepted.insert(.real)
        case .text: accepted.insert(.text)
        case .binary: accepted.insert(.blob)
        }
        return accepted
    }
}
