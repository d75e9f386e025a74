/// The tables a database holds, as a backend describes them for planning (``SchemaPlan``): only what
/// planning compares — columns, their types and nullability, the primary key, the indexes.
///
/// A backend fills it from its catalog; tests build one by hand:
///
/// ```swift
/// let database = DatabaseDescription(tables: [
///     .init(name: "todo", columns: [
///         .init(name: "id", declaredType: "INTEGER", accepts: [.integer], isNullable: false),
///         .init(name: "title", declaredType: "TEXT", accepts: [.text], isNullable: false),
///     ], primaryKey: ["id"]),
/// ])
/// ```
public struct DatabaseDescription: Sendable, Hashable {
    /// The tables, in any order.
    public var tables: [Table]
    /// Whether the database compares table and column names without regard to (ASCII) case, as SQLite does.
    public var namesIgnoreCase: Bool

    /// Describes a database holding `tables`.
    public init(tables: [Table], namesIgnoreCase: Bool = false) {
        self.tables = tables
        self.namesIgnoreCase = namesIgnoreCase
    }

    /// The table named `name`, if the database holds it.
    public func table(named name: String) -> Table? {
        tables.first { same($0.name, name) }
    }

    /// Whether two names denote the same table or column in this database.
    public func same(_ a: String, _ b: String) -> Bool {
        namesIgnoreCase ? a.lowercased() == b.lowercased() : a == b
    }

    /// One table: its columns in order, its primary key's columns and its indexes.
    public struct Table: Sendable, Hashable {
        /// The table's name.
        public var name: String
        /// Its columns, in declaration order.
        public var columns: [Column]
        /// The columns of its primary key, in key order (empty when it has none).
        public var primaryKey: [String]
        /// Its indexes (the primary key's own index need not be listed).
        public var indexes: [Index]

        /// Describes a table.
        public init(name: String, columns: [Column], primaryKey: [String], indexes: [Index] = []) {
            self.name = name
            self.columns = columns
            self.primaryKey = primaryKey
            self.indexes = indexes
        }
    }

    /// One column of a table.
    public struct Column: Sendable, Hashable {
        /// The column's name.
        public var name: String
        /// Its type as the database shows it (`INTEGER`, `character varying(20)`), for messages.
        public var declaredType: String
        /// The attribute types FetchKit reads and writes faithfully through this column (empty for a type
        /// FetchKit does not support).
        public var accepts: Set<AttributeType>
        /// Whether the column allows `NULL`.
        public var isNullable: Bool
        /// Whether the column has a default value (an insert may leave it out).
        public var hasDefault: Bool

        /// Describes a column.
        public init(
            name: String, declaredType: String, accepts: Set<AttributeType>, isNullable: Bool, hasDefault: Bool = false
        ) {
            self.name = name
            self.declaredType = declaredType
            self.accepts = accepts
            self.isNullable = isNullable
            self.hasDefault = hasDefault
        }
    }

    /// One index of a table.
    public struct Index: Sendable, Hashable {
        /// The index's name.
        public var name: String
        /// The columns it covers, in order.
        public var columns: [String]

        /// Describes an index.
        public init(name: String, columns: [String]) {
            self.name = name
            self.columns = columns
        }
    }
}
