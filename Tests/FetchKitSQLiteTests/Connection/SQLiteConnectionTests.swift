import CSQLite
import FetchKit
import Foundation
import Testing

@testable import FetchKitSQLite

@Suite("SQLite connection: binding, reading, functions, cache, errors")
struct SQLiteConnectionTests {
    let connection: SQLiteConnection

    init() throws {
        connection = try SQLiteConnection.open(
            .init(path: nil, readOnly: false, busyTimeoutMilliseconds: 100, statementCacheCapacity: 4))
        try connection.run(
            """
            CREATE TABLE v (i INTEGER, d FLOAT8_BLOB, s TEXT, b INTEGER, t INTEGER, x BLOB)
            """)
    }

    private func roundTrip(_ value: Value, column: String, as type: AttributeType) throws -> Value {
        try connection.run("DELETE FROM v")
        try connection.run("INSERT INTO v (\(column)) VALUES (?)", [value])
        return try connection.withStatement("SELECT \(column), typeof(\(column)) FROM v") { statement in
            let hasRow = try statement.step()
            #expect(hasRow)
            return statement.value(at: 0, as: type)
        }
    }

    @Test("every value type round-trips exactly through its column")
    func roundTrips() throws {
        let cases: [(Value, String, AttributeType)] = [
            (.integer(Int64.min), "i", .integer), (.integer(Int64.max), "i", .integer), (.integer(0), "i", .integer),
            (.double(-0.0), "d", .double), (.double(.infinity), "d", .double), (.double(-.infinity), "d", .double),
            (.double(1.0), "d", .double), (.double(.leastNonzeroMagnitude), "d", .double),
            (.double(.greatestFiniteMagnitude), "d", .double),
            (.text("日本語 🎉 e\u{301} Zürich"), "s", .text), (.text(""), "s", .text),
            (.bool(true), "b", .bool), (.bool(false), "b", .bool),
            (.date(Date(microsecondsSince1970: 1_700_000_000_123_456)), "t", .date),
            (.date(Date(microsecondsSince1970: -1)), "t", .date),
            (.blob(Data([0, 1, 2, 255])), "x", .binary), (.blob(Data()), "x", .binary),
            (.null, "s", .text), (.null, "x", .binary)
        ]
        for (value, column, type) in cases {
            let read = try roundTrip(value, column: column, as: type)
            #expect(read == value, "\(value) in \(column)")
        }
        let negativeZero = try roundTrip(.double(-0.0), column: "d", as: .double)
        #expect(negativeZero == .double(-0.0))
    }

    @Test("an empty blob is stored as a zero-length blob, not NULL")
    func emptyBlobIsNotNull() throws {
        try connection.run("INSERT INTO v (x) VALUES (?)", [.blob(Data())])
        let type = try connection.scalarText("SELECT typeof(x) FROM v")
        #expect(type == "blob")
    }

    @Test("an integer stored value reads as a double for a double attribute, and an exact float as an integer")
    func crossTypeReads() throws {
        #expect(try roundTrip(.integer(3), column: "d", as: .double) == .double(3))
        #expect(try roundTrip(.double(4), column: "i", as: .integer) == .integer(4))
        #expect(try roundTrip(.integer(2), column: "b", as: .bool) == .integer(2))
    }

    @Test("NaN and text containing NUL are rejected")
    func invalidValues() throws {
        #expect(throws: FetchKitError.self) { try connection.run("INSERT INTO v (d) VALUES (?)", [.double(.nan)]) }
        #expect(throws: FetchKitError.self) { try connection.run("INSERT INTO v (s) VALUES (?)", [.text("a\u{0}b")]) }
        #expect(try connection.scalarInteger("SELECT count(*) FROM v") == 0)
    }

    @Test("a wrong number of bindings is an error")
    func bindingCount() throws {
        #expect(throws: FetchKitError.self) { try connection.run("INSERT INTO v (i) VALUES (?)", []) }
        #expect(throws: FetchKitError.self) { try connection.run("INSERT INTO v (i) VALUES (?)", [1, 2]) }
    }

    @Test("fk_casefold and fk_unaccent fold text and pass other values through")
    func functions() throws {
        #expect(try connection.scalarText("SELECT fk_casefold(?)", ["ÀBC Straße ΟΔΟΣ"]) == "àbc strasse οδοσ")
        #expect(try connection.scalarText("SELECT fk_unaccent(?)", ["Crème Brûlée naïve"]) == "Creme Brulee naive")
        #expect(try connection.scalarText("SELECT fk_unaccent(fk_casefold(?))", ["ÉCOLE"]) == "ecole")
        #expect(try connection.scalarText("SELECT fk_casefold(?)", [""]) == "")
        #expect(try connection.scalarInteger("SELECT fk_casefold(42)") == 42)
        #expect(try connection.scalarText("SELECT typeof(fk_unaccent(NULL))") == "null")
        #expect(try connection.scalarText("SELECT typeof(fk_casefold(x'00'))") == "blob")
    }

    @Test("LIKE is case-sensitive on every connection")
    func caseSensitiveLike() throws {
        #expect(try connection.scalarInteger("SELECT 'Abc' LIKE 'abc'") == 0)
        #expect(try connection.scalarInteger("SELECT 'abc' LIKE 'a%'") == 1)
        #expect(try connection.scalarInteger("PRAGMA foreign_keys") == 1)
    }

    @Test("cached statements are reused, reset, and evicted least recently used first")
    func statementCache() throws {
        let cache = connection.statements
        let misses = cache.misses
        for value in 1...3 {
            #expect(try connection.scalarInteger("SELECT ? + 1", [.integer(Int64(value))]) == Int64(value) + 1)
        }
        #expect(cache.misses == misses + 1)
        #expect(cache.hits >= 2)
        let handle = try connection.withStatement("SELECT ? + 1") { $0.handle }
        for index in 0..<4 { try connection.run("SELECT \(index)") }
        #expect(cache.count == 4)
        let reprepared = try connection.withStatement("SELECT ? + 1") { $0.handle }
        #expect(reprepared != handle || cache.count <= 4)
        #expect(cache.count == 4)
    }

    @Test("a statement used re-entrantly gets a fresh statement")
    func reentrantStatement() throws {
        try connection.run("INSERT INTO v (i) VALUES (1), (2)")
        let sql = "SELECT i FROM v ORDER BY i"
        let pairs = try connection.withStatement(sql) { outer -> [Int64] in
            var seen: [Int64] = []
            while try outer.step() {
                if case .integer(let i) = outer.value(at: 0, as: .integer) { seen.append(i) }
                seen.append(try connection.scalarInteger(sql) ?? -1)
            }
            return seen
        }
        #expect(pairs == [1, 1, 2, 1])
    }

    @Test("SQL holding two statements is rejected; a trailing comment is fine")
    func oneStatementOnly() throws {
        #expect(throws: FetchKitError.self) { try connection.run("SELECT 1; DROP TABLE v") }
        #expect(throws: FetchKitError.self) { try connection.run("SELECT 1; nonsense") }
        try connection.run("SELECT 1; -- done\n  ")
        #expect(try connection.scalarInteger("SELECT count(*) FROM sqlite_master WHERE name = 'v'") == 1)
    }

    @Test("constraint failures map to constraint violations naming the column")
    func constraintErrors() throws {
        try connection.run("CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        try connection.run(
            """
            CREATE TABLE c (id INTEGER PRIMARY KEY, p INTEGER REFERENCES p(id),
                            n INTEGER CONSTRAINT positive CHECK (n > 0))
            """)
        try connection.run("INSERT INTO p (id, name) VALUES (1, 'a')")
        let cases: [(String, [Value], FetchKitError.Constraint, String?)] = [
            ("INSERT INTO p (id, name) VALUES (2, 'a')", [], .unique, "p.name"),
            ("INSERT INTO p (id, name) VALUES (1, 'b')", [], .primaryKey, "p.id"),
            ("INSERT INTO p (id, name) VALUES (3, ?)", [.null], .notNull, "p.name"),
            ("INSERT INTO c (p, n) VALUES (99, 1)", [], .foreignKey, nil),
            ("INSERT INTO c (p, n) VALUES (1, 0)", [], .check, "positive")
        ]
        for (sql, bindings, kind, name) in cases {
            do {
                try connection.run(sql, bindings)
                Issue.record("\(sql) succeeded")
            } catch let error as FetchKitError where error.code == .constraintViolation {
                let gotKind = (error.constraint ?? .other)
                let gotName = error.constraintName
                let message = error.message
                #expect(gotKind == kind, "\(sql): \(message)")
                #expect(gotName == name, "\(sql): \(message)")
            }
        }
    }

    @Test("other errors carry the code, message and SQL")
    func databaseError() throws {
        do {
            try connection.run("SELECT * FROM missing_table")
            Issue.record("selecting from a missing table succeeded")
        } catch let error as FetchKitError where error.code == .database {
            let code = (error.databaseCode ?? 0)
            let message = error.message
            #expect(code == SQLITE_ERROR)
            #expect(message.contains("missing_table"))
        }
    }

    @Test("the error mapping reads SQLite's message")
    func errorMapping() {
        #expect(SQLiteErrorMapping.constraintName(in: "UNIQUE constraint failed: todo.a, todo.b") == "todo.a, todo.b")
        #expect(SQLiteErrorMapping.constraintName(in: "FOREIGN KEY constraint failed") == nil)
        #expect(
            SQLiteErrorMapping.error(code: SQLITE_BUSY, message: "database is locked", sql: nil)
                == .busy("database is locked"))
        #expect(SQLiteErrorMapping.constraint(for: SQLITE_CONSTRAINT) == .other)
    }

    @Test("the backend, not the core, says which result codes are transient")
    func transience() {
        func error(_ code: Int32) -> FetchKitError { SQLiteErrorMapping.error(code: code, message: "m", sql: nil) }
        // SQLITE_IOERR_READ (extended), SQLITE_NOMEM, SQLITE_CANTOPEN, SQLITE_PROTOCOL: trying again can cure.
        for code in [SQLITE_IOERR | (1 << 8), SQLITE_NOMEM, SQLITE_CANTOPEN, SQLITE_PROTOCOL] {
            #expect(error(code).code == .database && error(code).isTransient, "\(code)")
        }
        // SQLITE_ERROR, SQLITE_CORRUPT, SQLITE_MISMATCH: they are not.
        for code in [SQLITE_ERROR, SQLITE_CORRUPT, SQLITE_MISMATCH] {
            #expect(error(code).code == .database && !error(code).isTransient, "\(code)")
        }
        #expect(error(SQLITE_BUSY).isTransient && !error(SQLITE_CONSTRAINT).isTransient)
        // The core alone classifies no database code: a `.database` error is permanent unless its raiser says.
        #expect(!FetchKitError(.database, message: "m", databaseCode: SQLITE_IOERR).isTransient)
    }
}
