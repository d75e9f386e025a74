import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitBackendKit
@testable import FetchKitPostgres

/// The libpq driver against a real server: connections on their own threads, typed binary parameters and
/// results that round-trip exactly, SQLSTATEs mapped to FetchKit's errors.
@Suite("PostgreSQL connection", .requiresPostgreSQL)
struct PostgresConnectionTests {
    /// Every value kind goes in as a parameter and comes back equal, through a column of its type.
    @Test func valuesRoundTripExactly() async throws {
        let pool = try await PostgresServer.pool()
        let table = PostgresServer.uniqueName("round_trip")
        let values: [(String, Value)] = [
            ("int8", .integer(.max)), ("int8", .integer(.min)), ("int8", .integer(0)), ("int8", .integer(-1)),
            ("float8", .double(0.1)), ("float8", .double(-0.0)), ("float8", .double(.infinity)),
            ("float8", .double(-.infinity)), ("float8", .double(.leastNonzeroMagnitude)),
            ("float8", .double(.greatestFiniteMagnitude)), ("float8", .double(1 / 3)),
            ("text", .text("")), ("text", .text("héllo 👋🏽 \u{2028} 'quoted' \"double\" \\ back")),
            ("bool", .bool(true)), ("bool", .bool(false)),
            ("timestamptz", .date(Date(microsecondsSince1970: 1_764_000_000_123_456))),
            ("timestamptz", .date(Date(microsecondsSince1970: -1))),
            ("timestamptz", .date(Date(microsecondsSince1970: 946_684_799_999_999))),
            ("timestamptz", .date(Date(microsecondsSince1970: -62_135_596_800_000_000))),
            ("bytea", .blob(Data())), ("bytea", .blob(Data([0, 1, 2, 255, 0, 128])))
        ]
        try await pool.run { connection in
            try connection.run(
                """
                CREATE TABLE \(table) (n serial PRIMARY KEY, int8 int8, float8 float8, text text, bool bool,
                                       timestamptz timestamptz, bytea bytea)
                """)
            for (column, value) in values {
                try connection.execute("INSERT INTO \(table) (\(column)) VALUES ($1)", [value])
            }
            try connection.execute("INSERT INTO \(table) (int8, text) VALUES ($1, $2)", [.null, .null])
        }
        let rows = try await pool.run { connection in
            try connection.execute("SELECT int8, float8, text, bool, timestamptz, bytea FROM \(table) ORDER BY n")
                .rows()
        }
        try #require(rows.count == values.count + 1)
        for (index, (column, value)) in values.enumerated() {
            #expect(rows[index][column] == value, "\(column) \(value)")
            if case .double(let double) = value, case .double(let back)? = rows[index][column] {
                #expect(double.bitPattern == back.bitPattern, "\(double) keeps its sign and every bit")
            }
        }
        #expect(rows[values.count].values.allSatisfy { $0 == .null })
        try await pool.run { _ = try $0.run("DROP TABLE \(table)") }
        await pool.shutDown()
    }

    /// Results of other integer, float and text types are read too; one FetchKit does not read is named.
    @Test func otherColumnTypesAreReadOrNamed() async throws {
        let pool = try await PostgresServer.pool()
        let row = try await pool.run { connection in
            try connection.execute(
                """
                SELECT 7::int2 AS a, 8::int4 AS b, 1.5::float4 AS c, 'x'::varchar AS d, 'y'::char(2) AS e,
                       '00112233-4455-6677-8899-aabbccddeeff'::uuid AS f, '2000-01-01 00:00:01'::timestamp AS g
                """
            ).rows()[0]
        }
        #expect(row["a"] == .integer(7) && row["b"] == .integer(8) && row["c"] == .double(1.5))
        #expect(row["d"] == .text("x") && row["e"] == .text("y "))
        #expect(row["f"] == .text("00112233-4455-6677-8899-aabbccddeeff"))
        #expect(row["g"] == .date(Date(microsecondsSince1970: 946_684_801_000_000)))
        await #expect(
            throws: FetchKitError.unsupported(
                "column 'n' has PostgreSQL type oid 1186, which FetchKit does not read"
            )
        ) {
            try await pool.run { connection in try connection.execute("SELECT '1 day'::interval AS n").rows() }
        }
        // A text-format result (of run, PQexec) is refused, not misread as binary.
        await #expect(
            throws: FetchKitError.unsupported(
                "column 'n' came back as text: read rows of statements run by execute, in binary"
            )
        ) {
            try await pool.run { connection in try connection.run("SELECT 1::int8 AS n").rows() }
        }
        await pool.shutDown()
    }

    /// A parameter is only ever a value: SQL in it is stored as text.
    @Test func parametersAreNeverSQL() async throws {
        let pool = try await PostgresServer.pool()
        let table = PostgresServer.uniqueName("injection")
        let evil = "x'); DROP TABLE \(table); --"
        let count = try await pool.run { connection -> Value? in
            try connection.run("CREATE TABLE \(table) (t text)")
            try connection.execute("INSERT INTO \(table) VALUES ($1)", [.text(evil)])
            return try connection.execute("SELECT count(*) AS n FROM \(table) WHERE t = $1", [.text(evil)]).rows()[
                0][
                    "n"]
        }
        #expect(count == .integer(1))
        try await pool.run { _ = try $0.run("DROP TABLE \(table)") }
        await pool.shutDown()
    }

    /// Constraint violations name the constraint (or column); other SQLSTATEs map to their cases.
    @Test func sqlStatesMapToTypedErrors() async throws {
        let pool = try await PostgresServer.pool()
        let parent = PostgresServer.uniqueName("parent")
        let child = PostgresServer.uniqueName("child")
        try await pool.run { connection in
            _ = try connection.run(
                """
                CREATE TABLE \(parent) (id int8 PRIMARY KEY, code text CONSTRAINT \(parent)_code_key UNIQUE,
                                        n int8 CONSTRAINT \(parent)_n_positive CHECK (n > 0), title text NOT NULL);
                CREATE TABLE \(child) (id int8 PRIMARY KEY,
                                       parent int8 CONSTRAINT \(child)_parent_fk REFERENCES \(parent) (id));
                INSERT INTO \(parent) VALUES (1, 'a', 1, 't');
                """)
        }
        func failure(_ sql: String, _ bindings: [Value] = []) async -> FetchKitError? {
            do {
                try await pool.run { connection in _ = try connection.execute(sql, bindings) }
                return nil
            } catch {
                return error as? FetchKitError
            }
        }
        let unique = await failure("INSERT INTO \(parent) VALUES (2, 'a', 1, 't')")
        let foreign = await failure("INSERT INTO \(child) VALUES (1, $1)", [.integer(99)])
        let notNull = await failure("INSERT INTO \(parent) VALUES (3, 'c', 1, NULL)")
        let check = await failure("INSERT INTO \(parent) VALUES (4, 'd', -1, 't')")
        let primary = await failure("INSERT INTO \(parent) VALUES (1, 'e', 1, 't')")
        guard unique?.code == .constraintViolation, unique?.constraint == .unique,
            unique?.constraintName == "\(parent)_code_key"
        else {
            Issue.record("\(String(describing: unique))")
            return
        }
        guard foreign?.code == .constraintViolation, foreign?.constraint == .foreignKey,
            foreign?.constraintName == "\(child)_parent_fk"
        else {
            Issue.record("\(String(describing: foreign))")
            return
        }
        guard notNull?.code == .constraintViolation, notNull?.constraint == .notNull,
            notNull?.constraintName == "title"
        else {
            Issue.record("\(String(describing: notNull))")
            return
        }
        guard check?.code == .constraintViolation, check?.constraint == .check,
            check?.constraintName == "\(parent)_n_positive"
        else {
            Issue.record("\(String(describing: check))")
            return
        }
        guard primary?.code == .constraintViolation, primary?.constraint == .unique,
            primary?.constraintName == "\(parent)_pkey"
        else {
            Issue.record("\(String(describing: primary))")
            return
        }

        func raised(_ state: String) async -> FetchKitError? {
            await failure("DO $$ BEGIN RAISE EXCEPTION 'raised %', '\(state)' USING ERRCODE = '\(state)'; END $$")
        }
        guard await raised("40001")?.code == .serializationFailure else {
            Issue.record("40001")
            return
        }
        guard await raised("40P01")?.code == .serializationFailure else {
            Issue.record("40P01")
            return
        }
        guard await raised("53300")?.code == .tooManyConnections else {
            Issue.record("53300")
            return
        }
        guard await raised("08006")?.code == .connectionLost else {
            Issue.record("08006")
            return
        }
        guard await raised("55P03")?.code == .busy else {
            Issue.record("55P03")
            return
        }
        let other = await failure("SELECT * FROM \(parent)_missing")
        #expect(other.map { "\($0)".contains("SQLSTATE 42P01") } == true, "\(String(describing: other))")
        try await pool.run { _ = try $0.run("DROP TABLE \(child); DROP TABLE \(parent)") }
        await pool.shutDown()
    }

    /// A connection the server terminates inside a transaction reports `connectionLost`, not a generic error,
    /// for the rest of the transaction; outside one, its next statement runs on a fresh session.
    @Test func aTerminatedBackendIsAConnectionLost() async throws {
        let pool = try await PostgresServer.pool()
        let pid = try await pool.run { connection in
            _ = try connection.run("BEGIN")
            return connection.backendPID
        }
        try await PostgresServer.administer("SELECT pg_terminate_backend(\(pid))")
        for _ in 0..<2 {
            await #expect {
                try await pool.run { connection in _ = try connection.execute("SELECT 1") }
            } throws: { error in
                guard (error as? FetchKitError)?.code == .connectionLost else { return false }
                return true
            }
        }
        try await pool.run { connection in _ = try connection.run("ROLLBACK") }
        #expect(try await pool.run { try $0.execute("SELECT 1 AS one").rows().first?["one"] } == .integer(1))

        let idle = try await pool.run { $0.backendPID }
        try await PostgresServer.administer("SELECT pg_terminate_backend(\(idle))")
        while try await !PostgresServer.query("SELECT pid FROM pg_stat_activity WHERE pid = \(idle)").isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        let (one, reconnections) = try await pool.run { connection in
            (try connection.execute("SELECT 1 AS one").rows().first?["one"], connection.reconnections)
        }
        #expect(one == .integer(1) && reconnections == 2)
        await pool.shutDown()
    }

    /// A refused connection is `connectionLost` with libpq's reason and the URL, but not the password; a
    /// role over its connection limit is `tooManyConnections`.
    @Test func refusedConnectionsSayWhyWithoutThePassword() async throws {
        let server = try PostgresServer.url()
        let port = server["port"] ?? "5432"
        let wrong = try PostgresURL("postgresql://nobody:hunter2@127.0.0.1:\(port)/no_such_database_here")
        #expect {
            _ = try PostgresConnection.open(wrong)
        } throws: { error in
            guard let error = error as? FetchKitError, error.code == .connectionLost else { return false }
            let message = error.message
            return message.contains("no_such_database_here") && message.contains("***")
                && !message.contains("hunter2")
        }
        let role = PostgresServer.uniqueName("limited")
        let pool = try await PostgresServer.pool()
        try await pool.run { _ = try $0.run("CREATE ROLE \(role) LOGIN CONNECTION LIMIT 0") }
        let limited = try PostgresURL(
            "postgresql://\(role)@\(server["host"] ?? "127.0.0.1"):\(port)/\(server["dbname"] ?? "postgres")")
        #expect {
            _ = try PostgresConnection.open(limited)
        } throws: { error in
            guard (error as? FetchKitError)?.code == .tooManyConnections else { return false }
            return true
        }
        try await pool.run { _ = try $0.run("DROP ROLE \(role)") }
        await pool.shutDown()
    }

    /// The store's readers and writer probe idle sockets with the listener's keepalive settings; a URL that
    /// sets its own keepalives wins.
    @Test func storeConnectionsHaveKeepalives() async throws {
        let namespace = PostgresServer.uniqueName("fkt")
        var options = PostgresStore.Options(readerCount: 1)
        options.listener.keepaliveIdle = .seconds(7)
        let store = try await PostgresServer.isolatedStore(
            schema: Fixtures.schema, namespace: namespace, options: options)
        let reader = try await store.readers.run { connection in
            [
                connection.option("keepalives"), connection.option("keepalives_idle"),
                connection.option("keepalives_count")
            ]
        }
        let writer = try await store.writer.run { connection in connection.option("keepalives_idle") }
        #expect(reader == ["1", "7", "3"] && writer == "7")
        await store.close()

        let url = try PostgresURL(try PostgresServer.urlText(searchPath: namespace) + "&keepalives_idle=30")
        let own = try await PostgresStore.open(url: url, schema: Fixtures.schema, options: options)
        #expect(try await own.readers.run { connection in connection.option("keepalives_idle") } == "30")
        await own.close()
    }
}
