import FetchKit
import Foundation

/// FetchKit's change capture in a PostgreSQL database: a trigger function in a schema of its own
/// (`fetchkit`) and, on each tracked table, statement-level `AFTER INSERT / UPDATE / DELETE / TRUNCATE`
/// triggers with transition tables. Every statement that changes rows sends one `pg_notify` on the channel
/// per chunk of keys — `{"x": txid, "s": schema, "t": table, "o": "i"|"u"|"d", "k": [keys…]}`, each under
/// 8000 bytes — or, above ``rowLimit`` rows (and for `TRUNCATE`), one hint `{"x": …, "s": …, "t": …, "o": …,
/// "all": true}`. Stores in other schemas of the same database may share the channel: a listener keeps only
/// its own schema's.
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
        ("TRUNCATE", ""),
    ]

    /// The name of the trigger of `event`.
    static func triggerName(_ event: String) -> String { "fetchkit_capture_\(event.lowercased())" }

    /// How a trigger reads a key whose column is not the standard type of its attribute type: through a
    /// cast, so that the key in the notification equals the key a fetch reads (`char(n)` without its padding).
    enum KeyCast: String {
        case text, bigint
    }

    /// Installs the function and the triggers of `tables` (table, key column, and the cast its key is read
    /// through, if any) on `connection`, in one
    /// transaction, changing only what differs: the function when its body is not this version's, a table's
    /// triggers when one is missing, disabled (or fires only for replicas) or has other arguments (key column, row limit, channel).
    /// Opening a store on an installed database therefore takes no lock on its tables.
    func install(
        on connection: PostgresConnection, tables: [(table: String, keyColumn: String, keyCast: KeyCast?)]
    ) throws {
        let dialect = SQLDialect.postgres
        try connection.inTransaction {
            // Read committed whatever the server's default, so that the catalog reads below see what an
            // installer that held the lock before us committed.
            try connection.run("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
            // Several processes may open stores at once: one installs at a time (catalog rows race otherwise).
            try connection.run("SELECT pg_advisory_xact_lock(hashtext('fetchkit.capture'))")
            try connection.run("CREATE SCHEMA IF NOT EXISTS \(dialect.quote(Self.schemaName))")
            let current = try connection.execute(
                "SELECT 1 AS found FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
                    + "WHERE n.nspname = $1 AND p.proname = 'capture' AND p.prosrc = $2",
                [.text(Self.schemaName), .text(Self.functionBody)])
            if current.rowCount == 0 { try connection.run(Self.functionDefinition) }
            for (table, keyColumn, keyCast) in tables {
                let arguments = [keyColumn, String(rowLimit), channel] + (keyCast.map { [$0.rawValue] } ?? [])
                let installed = try connection.execute(
                    "SELECT t.tgname::text AS name FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
                        + "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE t.tgrelid = to_regclass($1) "
                        + "AND n.nspname = $2 AND p.proname = 'capture' AND t.tgargs = $3 AND t.tgenabled IN ('O', 'A')",
                    [.text(dialect.quote(table)), .text(Self.schemaName),
                     .blob(Data(arguments.flatMap { Array($0.utf8) + [0] }))])
                let names = Set(try installed.rows().compactMap { $0["name", as: String.self] })
                guard names != Set(Self.events.map { Self.triggerName($0.0) }) else { continue }
                let function = "\(dialect.quote(Self.schemaName)).capture("
                    + arguments.map(Self.literal).joined(separator: ", ") + ")"
                for (event, transitions) in Self.events {
                    let trigger = dialect.quote(Self.triggerName(event))
                    try connection.run("DROP TRIGGER IF EXISTS \(trigger) ON \(dialect.quote(table))")
                    try connection.run(
                        "CREATE TRIGGER \(trigger) AFTER \(event) ON \(dialect.quote(table)) \(transitions) "
                            + "FOR EACH STATEMENT EXECUTE FUNCTION \(function)")
                }
            }
        }
    }

    /// The statements that remove the triggers of `tables` and the function's schema.
    static func uninstallStatements(for tables: [String], dialect: SQLDialect) -> [String] {
        var statements = ["SELECT pg_advisory_xact_lock(hashtext('fetchkit.capture'))"]
        for table in tables {
            for (event, _) in events {
                statements.append("DROP TRIGGER IF EXISTS \(dialect.quote(triggerName(event))) ON \(dialect.quote(table))")
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
    /// limit, the channel and, optionally, the ``KeyCast`` of the key.
    static let functionBody = #"""

        DECLARE
            key_column text := TG_ARGV[0];
            row_limit bigint := TG_ARGV[1]::bigint;
            channel text := TG_ARGV[2];
            key_expression text := CASE WHEN TG_NARGS < 4 THEN format('%I', key_column)
                WHEN TG_ARGV[3] = 'text' THEN format('CAST(%I AS text)', key_column)
                WHEN TG_ARGV[3] = 'bigint' THEN format('CAST(%I AS bigint)', key_column)
                ELSE format('%I', key_column) END;
            head text;
            keys_query text;
            counted bigint;
            element text;
            body text := '';
        BEGIN
            head := '{"x":' || txid_current() || ',"s":' || to_json(TG_TABLE_SCHEMA::text)::text
                || ',"t":' || to_json(TG_TABLE_NAME::text)::text
                || ',"o":"' || lower(left(TG_OP, 1)) || '"';
            IF TG_OP = 'TRUNCATE' THEN
                PERFORM pg_notify(channel, head || ',"all":true}');
                RETURN NULL;
            ELSIF TG_OP = 'INSERT' THEN
                SELECT count(*) INTO counted FROM new_rows;
                keys_query := format('SELECT to_json(%s)::text FROM new_rows', key_expression);
            ELSIF TG_OP = 'DELETE' THEN
                SELECT count(*) INTO counted FROM old_rows;
                keys_query := format('SELECT to_json(%s)::text FROM old_rows', key_expression);
            ELSE
                SELECT count(*) INTO counted FROM new_rows;
                keys_query := format(
                    'SELECT to_json(k)::text FROM (SELECT %s AS k FROM new_rows UNION SELECT %s FROM old_rows) AS changed',
                    key_expression, key_expression);
            END IF;
            IF counted = 0 THEN
                RETURN NULL;
            END IF;
            IF counted > row_limit THEN
                PERFORM pg_notify(channel, head || ',"all":true}');
                RETURN NULL;
            END IF;
            FOR element IN EXECUTE keys_query LOOP
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
