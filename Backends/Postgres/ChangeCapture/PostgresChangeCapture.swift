import FetchKit

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
/// Installing is idempotent (the function is replaced, each trigger dropped and created again) and runs
/// inside the caller's transaction.
struct PostgresChangeCapture {
    /// The schema that holds the trigger function.
    static let schemaName = "fetchkit"
    /// The `LISTEN` channel.
    let channel: String
    /// Above this many rows, a statement sends one table-level hint instead of its keys.
    let rowLimit: Int

    /// The statements that install the function and the triggers of `tables` (table and key column).
    func installStatements(for tables: [(table: String, keyColumn: String)], dialect: SQLDialect) -> [String] {
        var statements = [
            // Several processes may open stores at once: one installs at a time (catalog rows race otherwise).
            "SELECT pg_advisory_xact_lock(hashtext('fetchkit.capture'))",
            "CREATE SCHEMA IF NOT EXISTS \(dialect.quote(Self.schemaName))",
            Self.functionDefinition,
        ]
        for (table, keyColumn) in tables {
            let arguments = [keyColumn, String(rowLimit), channel].map(Self.literal).joined(separator: ", ")
            let function = "\(dialect.quote(Self.schemaName)).capture(\(arguments))"
            for (event, transitions) in [
                ("INSERT", "REFERENCING NEW TABLE AS new_rows"),
                ("UPDATE", "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows"),
                ("DELETE", "REFERENCING OLD TABLE AS old_rows"),
                ("TRUNCATE", ""),
            ] {
                let trigger = dialect.quote("fetchkit_capture_\(event.lowercased())")
                statements.append("DROP TRIGGER IF EXISTS \(trigger) ON \(dialect.quote(table))")
                statements.append(
                    "CREATE TRIGGER \(trigger) AFTER \(event) ON \(dialect.quote(table)) \(transitions) "
                        + "FOR EACH STATEMENT EXECUTE FUNCTION \(function)")
            }
        }
        return statements
    }

    /// The statements that remove the triggers of `tables` and the function's schema.
    static func uninstallStatements(for tables: [String], dialect: SQLDialect) -> [String] {
        var statements = ["SELECT pg_advisory_xact_lock(hashtext('fetchkit.capture'))"]
        for table in tables {
            for event in ["insert", "update", "delete", "truncate"] {
                statements.append(
                    "DROP TRIGGER IF EXISTS \(dialect.quote("fetchkit_capture_\(event)")) ON \(dialect.quote(table))")
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
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The trigger function: arguments are the key column, the row limit and the channel.
    static let functionDefinition = #"""
        CREATE OR REPLACE FUNCTION "fetchkit".capture() RETURNS trigger LANGUAGE plpgsql AS $capture$
        DECLARE
            key_column text := TG_ARGV[0];
            row_limit bigint := TG_ARGV[1]::bigint;
            channel text := TG_ARGV[2];
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
                keys_query := format('SELECT to_json(%I)::text FROM new_rows', key_column);
            ELSIF TG_OP = 'DELETE' THEN
                SELECT count(*) INTO counted FROM old_rows;
                keys_query := format('SELECT to_json(%I)::text FROM old_rows', key_column);
            ELSE
                SELECT count(*) INTO counted FROM new_rows;
                keys_query := format(
                    'SELECT to_json(k)::text FROM (SELECT %I AS k FROM new_rows UNION SELECT %I FROM old_rows) AS changed',
                    key_column, key_column);
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
        $capture$
        """#
}
