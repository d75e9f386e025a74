@_spi(Backend) import FetchKit
import Foundation

/// FetchKit's change capture in a PostgreSQL database: a trigger function in a schema of its own
/// (`fetchkit`) and, on each tracked table, statement-level `AFTER INSERT / UPDATE / DELETE / TRUNCATE`
/// triggers with transition tables. Every statement that changes rows sends one `pg_notify` on the channel
/// per chunk of keys — `{"x": txid, "s": schema, "t": table, "o": "i"|"u"|"d", "k": [keys…]}`, each under
/// 8000 bytes — or, above ``rowLimit`` rows, for a key too long to fit, and for `TRUNCATE`, one hint
/// `{"x": …, "s": …, "t": …, "o": …, "all": true}`. Stores in other schemas of the same database may share the
/// channel: a listener keeps only its own schema's.
/// Writes by any client (psql, another service) are captured the same way; notifications reach listeners
/// when the transaction commits, in commit order.
///
/// Installing is idempotent and changes only what differs from this version (see ``install(on:tables:)``).
struct PostgresChangeCapture {
    /// The schema that holds the trigger function.
    static let schemaName = "fetchkit"
    /// The `LISTEN` channel.
    let channel: String
    /// Above this many rows, a statement sends one table-level hint instead of its keys.
    let rowLimit: Int

    /// The events captured, with the transition tables each trigger declares.
    static let events = [
        ("INSERT", "REFERENCING NEW TABLE AS new_rows"),
        ("UPDATE", "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows"),
        ("DELETE", "REFERENCING OLD TABLE AS old_rows"),
        ("TRUNCATE", "")
    ]

    /// The name of the trigger of `event`.
    static func triggerName(_ event: String) -> String { "fetchkit_capture_\(event.lowercased())" }

    /// Installs the function and the triggers of `tables` (table and key column) on `connection`, in one
    /// transaction, changing only what differs: the function when its body is not this version's, a table's
    /// triggers when one is missing, disabled (or fires only for replicas) or has other arguments (key column,
    /// row limit, channel). It checks first and creates nothing when everything is in place, so a role without
    /// `CREATE` on the database or ownership of the tables opens a store on a database whose capture a DBA
    /// installed (``script(for:namespace:)``); opening an installed database takes no lock on its tables.
    ///
    /// - Throws: ``FetchKitError/Code/permissionDenied`` naming what had to be installed and the right it takes,
    ///   when the role lacks it.
    func install(on connection: PostgresConnection, tables: [(table: String, keyColumn: String)]) throws {
        try connection.inTransaction {
            // Read committed whatever the server's default, so that the catalog reads below see what an
            // installer that held the lock before us committed.
            try connection.run("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
            // Several processes may open stores at once: one installs at a time (catalog rows race otherwise).
            try connection.run("SELECT pg_advisory_xact_lock(hashtext('fetchkit.capture'))")
            let current = try connection.execute(
                "SELECT 1 AS found FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
                    + "WHERE n.nspname = $1 AND p.proname = 'capture' AND p.prosrc = $2",
                [.text(Self.schemaName), .text(Self.functionBody)])
            if current.rowCount == 0 {
                try Self.explainingPermission(
                    "FetchKit's trigger function (schema \"fetchkit\")",
                    right: "CREATE on the database"
                ) {
                    for statement in Self.functionStatements { try connection.run(statement) }
                }
            }
            for (table, keyColumn) in tables where try !isInstalled(on: table, keyColumn: keyColumn, connection) {
                try Self.explainingPermission(
                    "the change-capture triggers of table '\(table)'",
                    right: "ownership of the table (or the TRIGGER privilege)"
                ) {
                    for statement in triggerStatements(table: SQLDialect.postgres.quote(table), keyColumn: keyColumn) {
                        try connection.run(statement)
                    }
                }
            }
        }
    }

    /// Whether `table`'s four triggers call this version's function with this capture's arguments, enabled.
    private func isInstalled(on table: String, keyColumn: String, _ connection: PostgresConnection) throws -> Bool {
        let installed = try connection.execute(
            "SELECT t.tgname::text AS name FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
                + "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE t.tgrelid = to_regclass($1) "
                + "AND n.nspname = $2 AND p.proname = 'capture' AND t.tgargs = $3 AND t.tgenabled IN ('O', 'A')",
            [
                .text(SQLDialect.postgres.quote(table)), .text(Self.schemaName),
                .blob(Data(arguments(keyColumn: keyColumn).flatMap { Array($0.utf8) + [0] }))
            ])
        let names = Set(try installed.rows().compactMap { $0["name", as: String.self] })
        return names == Set(Self.events.map { Self.triggerName($0.0) })
    }

    /// The trigger arguments: key column, row limit, channel.
    private func arguments(keyColumn: String) -> [String] { [keyColumn, String(rowLimit), channel] }

    /// The statements that create the function's schema and the function.
    static let functionStatements = [
        "CREATE SCHEMA IF NOT EXISTS \(SQLDialect.postgres.quote(schemaName))",
        functionDefinition
    ]

    /// The statements that (re)create the triggers of `table` (quoted, maybe schema-qualified).
    func triggerStatements(table: String, keyColumn: String) -> [String] {
        let function =
            "\(SQLDialect.postgres.quote(Self.schemaName)).capture("
            + arguments(keyColumn: keyColumn).map(Self.literal).joined(separator: ", ") + ")"
        return Self.events.flatMap { event, transitions -> [String] in
            let trigger = SQLDialect.postgres.quote(Self.triggerName(event))
            return [
                "DROP TRIGGER IF EXISTS \(trigger) ON \(table)",
                "CREATE TRIGGER \(trigger) AFTER \(event) ON \(table) \(transitions) "
                    + "FOR EACH STATEMENT EXECUTE FUNCTION \(function)"
            ]
        }
    }

    /// The whole installation as one SQL script, for a DBA to run as a migration: one transaction that
    /// creates the function and the triggers of `tables`, qualified with `namespace` when given.
    func script(for tables: [(table: String, keyColumn: String)], namespace: String?) -> String {
        let dialect = SQLDialect.postgres
        var statements = [
            "BEGIN", "DO $lock$ BEGIN PERFORM pg_advisory_xact_lock(hashtext('fetchkit.capture')); END $lock$"
        ]
        statements += Self.functionStatements
        for (table, keyColumn) in tables {
            let name = (namespace.map { dialect.quote($0) + "." } ?? "") + dialect.quote(table)
            statements += triggerStatements(table: name, keyColumn: keyColumn)
        }
        statements.append("COMMIT")
        return statements.map { $0 + ";\n" }.joined()
    }

    /// Runs `body`; a permission error becomes one that names what was being installed and the right it takes.
    private static func explainingPermission(_ what: String, right: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as FetchKitError where error.code == .permissionDenied {
            let message = error.message
            throw FetchKitError.permissionDenied(
                "installing \(what) needs \(right), which this role lacks (\(message)); have a role that has it run "
                    + "the SQL of `fetchkit capture-sql` (PostgresStore.changeCaptureSQL) once, as a migration")
        }
    }

    /// The statements that remove the triggers of `tables` and the function's schema.
    static func uninstallStatements(for tables: [String], dialect: SQLDialect) -> [String] {
        var statements = ["SELECT pg_advisory_xact_lock(hashtext('fetchkit.capture'))"]
        for table in tables {
            for (event, _) in events {
                statements.append(
                    "DROP TRIGGER IF EXISTS \(dialect.quote(triggerName(event))) ON \(dialect.quote(table))")
            }
        }
        statements.append("DROP SCHEMA IF EXISTS \(dialect.quote(schemaName)) CASCADE")
        return statements
    }

    /// `channel` as an identifier for `LISTEN`, quoted.
    static func quotedChannel(_ channel: String) -> String { SQLDialect.postgres.quote(channel) }

    /// `text` as a SQL string literal. Trigger arguments are DDL, which takes no parameters; what goes in
    /// are a schema's validated column name, a number and the channel name, with `'` doubled regardless.
    static func literal(_ text: String) -> String {
        SQLDialect.enclose(text, in: UInt8(ascii: "'"))
    }

    /// The statement that creates (or replaces) the trigger function.
    static let functionDefinition =
        "CREATE OR REPLACE FUNCTION \"fetchkit\".capture() RETURNS trigger LANGUAGE plpgsql AS $capture$"
        + functionBody + "$capture$"

    /// The trigger function's body (what `pg_proc.prosrc` holds): arguments are the key column, the row
    /// limit and the channel.
    static let functionBody = #"""

        -- The table's columns may bear the names of this function's variables: its queries mean the variables.
        #variable_conflict use_variable
        DECLARE
            key_column text := TG_ARGV[0];
            row_limit bigint := TG_ARGV[1]::bigint;
            channel text := TG_ARGV[2];
            head text;
            keys text[];
            element text;
            body text := '';
        BEGIN
            head := '{"x":' || txid_current() || ',"s":' || to_json(TG_TABLE_SCHEMA::text)::text
                || ',"t":' || to_json(TG_TABLE_NAME::text)::text
                || ',"o":"' || lower(left(TG_OP, 1)) || '"';
            IF TG_OP = 'TRUNCATE' THEN
                PERFORM pg_notify(channel, head || ',"all":true}');
                RETURN NULL;
            END IF;
            -- Static queries (their plans are cached for the session), reading at most one key more than the
            -- limit: the key column is picked out of each row as JSON, so no statement is built and planned
            -- per call. The row is n.* (o.*), never n (o), which names the column when the table has one so named.
            IF TG_OP = 'INSERT' THEN
                SELECT array_agg(k) INTO keys FROM (
                    SELECT (to_jsonb(n.*) -> key_column)::text AS k FROM new_rows AS n LIMIT row_limit + 1) AS changed;
            ELSIF TG_OP = 'DELETE' THEN
                SELECT array_agg(k) INTO keys FROM (
                    SELECT (to_jsonb(o.*) -> key_column)::text AS k FROM old_rows AS o LIMIT row_limit + 1) AS changed;
            ELSE
                -- An update has as many old rows as new ones, each side with distinct keys: when one side
                -- holds more than the limit, so does the union of the first row_limit + 1 of each.
                SELECT array_agg(k) INTO keys FROM (
                    (SELECT (to_jsonb(n.*) -> key_column)::text AS k FROM new_rows AS n LIMIT row_limit + 1)
                    UNION
                    (SELECT (to_jsonb(o.*) -> key_column)::text AS k FROM old_rows AS o LIMIT row_limit + 1)) AS \#
        changed;
            END IF;
            IF keys IS NULL THEN
                RETURN NULL;
            END IF;
            IF cardinality(keys) > row_limit THEN
                PERFORM pg_notify(channel, head || ',"all":true}');
                RETURN NULL;
            END IF;
            FOREACH element IN ARRAY keys LOOP
                -- A key too long for a notification's 8000 bytes: the whole table, rather than fail the write.
                IF octet_length(element) > 7000 THEN
                    PERFORM pg_notify(channel, head || ',"all":true}');
                    RETURN NULL;
                END IF;
                IF body <> '' AND octet_length(body) + octet_length(element) > 7000 THEN
                    PERFORM pg_notify(channel, head || ',"k":[' || body || ']}');
                    body := '';
                END IF;
                body := CASE WHEN body = '' THEN element ELSE body || ',' || element END;
            END LOOP;
            IF body <> '' THEN
                PERFORM pg_notify(channel, head || ',"k":[' || body || ']}');
            END IF;
            RETURN NULL;
        END

        """#
}
