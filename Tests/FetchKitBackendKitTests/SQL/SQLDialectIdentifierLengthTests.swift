@_spi(Backend) import FetchKit
import FetchKitBackendKit
import FetchKitTesting
import Testing

/// A dialect's identifier limit, checked without a database: a schema that names a table or column longer than
/// the backend keeps is refused, naming it; the index names FetchKit makes up are cut as the database would.
@Suite("SQLDialect: the longest identifier")
struct SQLDialectIdentifierLengthTests {
    /// A dialect that keeps 63 bytes of an identifier, as PostgreSQL does.
    let limited = SQLDialect(name: "PostgreSQL", placeholderStyle: .dollarNumbered, maxIdentifierBytes: 63)

    private func schema(table: String = "todo", column: String = "title", foreignKey: String = "category_id")
        throws -> Schema
    {
        try Schema([
            Entity(
                "Category", table: "category", attributes: [],
                relationships: [.toMany("todos", to: "Todo", inverse: "category")]),
            Entity(
                "Todo", table: table,
                attributes: [
                    Attribute("title", .text, column: column, indexed: true),
                    Attribute("categoryID", .integer, optional: true, column: foreignKey)
                ],
                relationships: [.toOne("category", to: "Category", foreignKey: "categoryID")])
        ])
    }

    private func refusal(_ schema: Schema, in dialect: SQLDialect) -> FetchKitError? {
        do {
            try dialect.checkIdentifierLengths(of: schema)
            return nil
        } catch {
            return error as? FetchKitError
        }
    }

    @Test("63 bytes pass; 64 bytes of a table, a column or a foreign key are refused, naming it")
    func refusesLongNames() throws {
        let fits = { (letter: String) in String(repeating: letter, count: 63) }
        #expect(refusal(try schema(table: fits("t"), column: fits("c"), foreignKey: fits("f")), in: limited) == nil)

        let long = String(repeating: "x", count: 64)
        let table = try #require(refusal(try schema(table: long), in: limited))
        #expect(table.code == .invalidSchema && table.entity == "Todo" && table.table == long)
        #expect(table.message.contains("the table '\(long)' of entity Todo is 64 bytes long"), "\(table)")
        #expect(table.message.contains("PostgreSQL keeps at most 63 bytes"), "\(table)")

        let column = try #require(refusal(try schema(column: long), in: limited))
        #expect(column.code == .invalidSchema && column.entity == "Todo")
        #expect(column.message.contains("the column '\(long)' of Todo.title is 64 bytes long"), "\(column)")

        let foreignKey = try #require(refusal(try schema(foreignKey: long), in: limited))
        #expect(foreignKey.message.contains("(the foreign key of relationship 'category')"), "\(foreignKey)")
        #expect(foreignKey.description.hasPrefix("invalid schema: "))
    }

    @Test("the limit counts UTF-8 bytes, not characters")
    func countsBytes() throws {
        // 32 characters, 64 bytes: PostgreSQL would keep 31 of them.
        let accented = String(repeating: "é", count: 32)
        let error = try #require(refusal(try schema(table: accented), in: limited))
        #expect(error.message.contains("is 64 bytes long"), "\(error)")
        #expect(refusal(try schema(table: String(repeating: "é", count: 31)), in: limited) == nil)
    }

    @Test("a dialect without a limit accepts any length")
    func noLimit() throws {
        let dialect = SQLDialect(name: "SQLite", placeholderStyle: .questionMark)
        #expect(dialect.maxIdentifierBytes == nil)
        let long = String(repeating: "x", count: 300)
        #expect(refusal(try schema(table: long, column: long, foreignKey: long + "_"), in: dialect) == nil)
        #expect(dialect.indexName(table: long, column: long) == "\(long)_\(long)_idx")
    }

    @Test("index names are cut to the limit at a character boundary, as PostgreSQL cuts them")
    func indexNames() throws {
        #expect(limited.indexName(table: "todo", column: "title") == "todo_title_idx")
        let table = String(repeating: "t", count: 40)
        let cut = limited.indexName(table: table, column: String(repeating: "c", count: 40))
        #expect(cut == table + "_" + String(repeating: "c", count: 22))
        // 62 bytes, then a two-byte character that would straddle byte 63: it goes whole.
        let straddling = limited.indexName(table: String(repeating: "a", count: 61), column: "éé")
        #expect(straddling == String(repeating: "a", count: 61) + "_", "\(straddling)")
        // The table the compiler creates uses the cut name.
        let long = String(repeating: "l", count: 60)
        let statements = SQLCompiler(schema: try schema(table: long), dialect: limited).createTable(
            try schema(table: long).entity(named: "Todo"))
        #expect(statements.contains { $0.sql.contains(#"INDEX IF NOT EXISTS ""# + long + #"_ca" ON"#) })
    }

    @Test("a cut index name an earlier index of the table took ends in a hash instead")
    func indexNameTakenInTable() throws {
        let table = String(repeating: "t", count: 60)
        let entity = try schema(table: table, column: "abcdef", foreignKey: "abcxyz").entity(named: "Todo")
        let names = limited.indexNames(of: entity)
        // Declaration order: title ("abcdef"), then the foreign key ("abcxyz").
        #expect(names.map(\.column) == ["abcdef", "abcxyz"])
        #expect(names[0].name == table + "_ab", "\(names)")
        let second = names[1].name
        #expect(second.utf8.count <= 63 && second != names[0].name, "\(second)")
        #expect(second.hasPrefix(String(repeating: "t", count: 54)), "\(second)")
        #expect(second.suffix(9).first == "_" && second.suffix(8).allSatisfy(\.isHexDigit), "\(second)")
        // The same in every run: the hash is FNV-1a, not the process's seeded hasher.
        #expect(limited.indexNames(of: entity).map(\.name) == names.map(\.name))
        #expect(refusal(try schema(table: table, column: "abcdef", foreignKey: "abcxyz"), in: limited) == nil)
        // The compiler creates both.
        let sql = SQLCompiler(
            schema: try schema(table: table, column: "abcdef", foreignKey: "abcxyz"), dialect: limited
        )
        .createTable(entity).map(\.sql)
        #expect(sql.contains { $0.contains("\"" + second + "\" ON") }, "\(sql)")
    }

    @Test("indexes of two tables whose names come out equal once cut are refused")
    func indexNameCollision() throws {
        let table = String(repeating: "t", count: 60)
        let schema = try Schema([
            Entity("A", table: table, attributes: [Attribute("abc", .text, indexed: true)]),
            Entity("B", table: table + "_ab", attributes: [Attribute("x", .text, indexed: true)])
        ])
        let error = try #require(refusal(schema, in: limited))
        #expect(error.code == .invalidSchema && error.entity == "B")
        #expect(error.message.contains("would both be named '\(table)_ab'"), "\(error)")
    }
}
