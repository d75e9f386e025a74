import FetchKitBackendKit
import Foundation

/// FetchKit's change capture in a PostgreSQL database: a trigger function in a schema of its own
/// (`fetchkit`) and, on each tracked table, statement-level `AFTER INSERT / UPDATE / DELETE / TRUNCATE`
/// triggers with transition tables. Every statement that changes rows sends one `pg_notify` on the channel
/// per chunk of keys — `{"x": txid, "s": schema, "t": table, "o": "i"|"u"|"d", "k": [keys…]}`, each under
/// 8000 bytes — or, above ``rowLimit`` rows, for a key too long to fit, and for `TRUNCATE`, one hint
/// `{"x": …, "s": …, "t": …, "o": …, "all": true}`. A table whose foreign keys a to-many relationship follows
/// (``PostgresReferenceColumns``) also sends, per statement and followed column, the values the changed rows held
/// there before and after: `{"x": …, "s": …, "t": …, "o": "r", "c": column, "k": [values…]}` (`"k": []` when they
/// were all NULL; `"all": true` above ``rowLimit`` values). Stores in other schemas of the same database may share the
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
    func install(on connection: PostgresConnection, tables: [CapturedTable]) throws {
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
            for table in tables where try !isInstalled(table, connection) {
                try Self.explainingPermission(
                    "the change-capture triggers of table \(SafeText.quoted(table.table))",
                    right: "ownership of the table (or the TRIGGER privilege)"
                ) {
                    for statement in triggerStatements(table: SQLDialect.postgres.quote(table.table), captured: table) {
                        try connection.run(statement)
                    }
                }
            }
        }
    }

    /// One table to capture: its name, its primary-key column and the foreign-key columns whose values it reports.
    struct CapturedTable: Equatable {
        var table: String
        var keyColumn: String
        var references: [String] = []
    }

    /// Whether `table`'s four triggers call this version's function with this capture's arguments, enabled: the
    /// same key column, row limit and channel, and at least the reference columns it needs (a DBA's script may
    /// follow every foreign key).
    private func isInstalled(_ table: CapturedTable, _ connection: PostgresConnection) throws -> Bool {
        let installed = try connection.execute(
            "SELECT t.tgname::text AS name, t.tgargs AS arguments FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
                + "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE t.tgrelid = to_regclass($1) "
                + "AND n.nspname = $2 AND p.proname = 'capture' AND t.tgenabled IN ('O', 'A')",
            [.text(SQLDialect.postgres.quote(table.table)), .text(Self.schemaName)])
        let wanted = arguments(table)
        var names: Set<String> = []
        for row in try installed.rows() {
            guard let name = row["name", as: String.self], case .blob(let bytes)? = row["arguments"] else { continue }
            let given = bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
                String(decoding: $0, as: UTF8.self)
            }
            guard given.count >= 3, given.prefix(3) == wanted.prefix(3),
                Set(wanted.dropFirst(3)).isSubset(of: given.dropFirst(3))
            else { continue }
            names.insert(name)
        }
        return names == Set(Self.events.map { Self.triggerName($0.0) })
    }

    /// The trigger arguments: key column, row limit, channel, then the reference columns.
    private func arguments(_ table: CapturedTable) -> [String] {
        [table.keyColumn, String(rowLimit), channel] + table.references
    }

    /// The statements that create the function's schema and the function.
    static let functionStatements = [
        "CREATE SCHEMA IF NOT EXISTS \(SQLDialect.postgres.quote(schemaName))",
        functionDefinition
    ]

    /// The statements that (re)create the triggers of `table` (quoted, maybe schema-qualified).
    func triggerStatements(table: String, captured: CapturedTable) -> [String] {
        let function =
            "\(SQLDialect.postgres.quote(Self.schemaName)).capture("
            + arguments(captured).map(Self.literal).joined(separator: ", ") + ")"
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
    func script(for tables: [CapturedTable], namespace: String?) -> String {
        let dialect = SQLDialect.postgres
        var statements = [
            "BEGIN", "DO $lock$ BEGIN PERFORM pg_advisory_xact_lock(hashtext('fetchkit.capture')); END $lock$"
        ]
        statements += Self.functionStatements
        for table in tables {
            let name = (namespace.map { dialect.quote($0) + "." } ?? "") + dialect.quote(table.table)
            statements += triggerStatements(table: name, captured: table)
        }
        statements.append("COMMIT")
        return statements.map { $0 + ";\n" }.joined()
    }

    /// The removal as one SQL script, for a migration: one transaction that drops the triggers of `tables`
    /// (qualified with `namespace` when given) and the function's schema.
    static func uninstallScript(for tables: [String], namespace: String?) -> String {
        var statements = uninstallStatements(for: tables, dialect: .postgres, namespace: namespace)
        // A script runs in psql, where a bare SELECT prints its row: the lock as a DO block, as the install's.
        statements[0] = "DO $lock$ BEGIN PERFORM pg_advisory_xact_lock(hashtext('fetchkit.capture')); END $lock$"
        return (["BEGIN"] + statements + ["COMMIT"]).map { $0 + ";\n" }.joined()
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

    /// The statements that remove the triggers of `tables` (qualified with `namespace` when given) and, unless
    /// `keepingFunction`, the function's schema.
    static func uninstallStatements(
        for tables: [String], dialect: SQLDialect, namespace: String? = nil, keepingFunction: Bool = false
    ) -> [String] {
        var statements = ["SELECT pg_advisory_xact_lock(hashtext('fetchkit.capture'))"]
        let qualifier = namespace.map { dialect.quote($0) + "." } ?? ""
        for table in tables {
            for (event, _) in events {
                statements.append(
                    "DROP TRIGGER IF EXISTS \(dialect.quote(triggerName(event))) ON \(qualifier)\(dialect.quote(table))"
                )
            }
        }
        if !keepingFunction { statements.append("DROP SCHEMA IF EXISTS \(dialect.quote(schemaName)) CASCADE") }
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
            body text;
            chunk text;
            argument integer;
            reference_column text;
            too_many boolean;
        BEGIN
            head := '{"x":' || txid_current() || ',"s":' || to_json(TG_TABLE_SCHEMA::text)::text
                || ',"t":' || to_json(TG_TABLE_NAME::text)::text;
            IF TG_OP = 'TRUNCATE' THEN
                PERFORM pg_notify(channel, head || ',"o":"t","all":true}');
                RETURN NULL;
            END IF;
            -- Pass 2 sends the changed keys; passes 3 on, the values the changed rows held, before and after, in
            -- the followed foreign key TG_ARGV[pass] (at least one notification each, so the listener knows them).
            FOR argument IN 2 .. TG_NARGS - 1 LOOP
                -- Static queries (their plans are cached for the session), reading at most one value more than the
                -- limit: the column is picked out of each row as JSON, so no statement is built and planned per
                -- call. The row is n.* (o.*), never n (o), which names the column when the table has one so named.
                IF argument = 2 THEN
                    reference_column := key_column;
                ELSE
                    reference_column := TG_ARGV[argument];
                END IF;
                IF TG_OP = 'INSERT' THEN
                    SELECT array_agg(DISTINCT k) INTO keys FROM (SELECT (to_jsonb(n.*) -> reference_column)::text AS k
                        FROM new_rows AS n LIMIT row_limit + 1) AS changed WHERE k <> 'null';
                ELSIF TG_OP = 'DELETE' THEN
                    SELECT array_agg(DISTINCT k) INTO keys FROM (SELECT (to_jsonb(o.*) -> reference_column)::text AS k
                        FROM old_rows AS o LIMIT row_limit + 1) AS changed WHERE k <> 'null';
                ELSE
                    -- Each side holds distinct keys: when one side holds more than the limit, so does the union of
                    -- the first row_limit + 1 of each. (A foreign key's pass runs only when the key pass found at
                    -- most row_limit keys: the limit then reads every row.)
                    SELECT array_agg(k) INTO keys FROM (
                        (SELECT (to_jsonb(n.*) -> reference_column)::text AS k FROM new_rows AS n LIMIT row_limit + 1)
                        UNION
                        (SELECT (to_jsonb(o.*) -> reference_column)::text AS k FROM old_rows AS o LIMIT row_limit + 1)
                    ) AS changed WHERE k <> 'null';
                END IF;
                IF argument = 2 THEN
                    IF keys IS NULL THEN
                        RETURN NULL;
                    END IF;
                    body := head || ',"o":"' || lower(left(TG_OP, 1)) || '"';
                ELSE
                    keys := coalesce(keys, '{}');
                    body := head || ',"o":"r","c":' || to_json(reference_column)::text;
                END IF;
                -- Too many values, or one too long for a notification's 8000 bytes: a hint rather than a failed
                -- write (for the keys, the whole table; for a foreign key, its values unknown).
                too_many := cardinality(keys) > row_limit
                    OR EXISTS (SELECT 1 FROM unnest(keys) AS k WHERE octet_length(k) > 7000);
                IF too_many THEN
                    PERFORM pg_notify(channel, body || ',"all":true}');
                    IF argument = 2 THEN
                        RETURN NULL;
                    END IF;
                    CONTINUE;
                END IF;
                -- Chunks under 8000 bytes: body holds the head, chunk the values gathered.
                chunk := '';
                FOREACH element IN ARRAY keys LOOP
                    IF chunk <> '' AND octet_length(chunk) + octet_length(element) > 7000 THEN
                        PERFORM pg_notify(channel, body || ',"k":[' || chunk || ']}');
                        chunk := '';
                    END IF;
                    chunk := CASE WHEN chunk = '' THEN element ELSE chunk || ',' || element END;
                END LOOP;
                IF chunk <> '' OR argument > 2 THEN
                    PERFORM pg_notify(channel, body || ',"k":[' || chunk || ']}');
                END IF;
            END LOOP;
            RETURN NULL;
        END

        """#
}
