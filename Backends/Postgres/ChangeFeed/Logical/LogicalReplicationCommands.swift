import FetchKitBackendKit

/// The commands of a logical-replication session, and the SQL a DBA runs for it, with every name quoted:
/// nothing a user configures reaches the server unquoted.
enum LogicalReplicationCommands {
    /// The most bytes of a slot's name (PostgreSQL's `NAMEDATALEN - 1`).
    static let maximumSlotNameLength = 63

    /// `CREATE PUBLICATION` for exactly `tables` of `schema` (on an ordinary connection, before the slot).
    static func createPublication(_ name: String, schema: String, tables: [String]) -> String {
        "CREATE PUBLICATION \(quote(name)) FOR TABLE \(list(tables, in: schema))"
    }

    /// Makes an existing publication name exactly `tables` of `schema`.
    static func setPublicationTables(_ name: String, schema: String, tables: [String]) -> String {
        "ALTER PUBLICATION \(quote(name)) SET TABLE \(list(tables, in: schema))"
    }

    /// Creates a logical slot for `pgoutput` without exporting a snapshot (the spelling PostgreSQL 10 to 17 all
    /// accept), on the replication connection; a temporary slot goes with its connection.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` for a name PostgreSQL refuses as a slot's.
    static func createSlot(_ name: String, temporary: Bool) throws -> String {
        try validateSlotName(name)
        return "CREATE_REPLICATION_SLOT \(name)\(temporary ? " TEMPORARY" : "") LOGICAL pgoutput NOEXPORT_SNAPSHOT"
    }

    /// Streams `slot` from `position` (``LogPosition/zero``: from where the slot is), in `pgoutput`'s protocol
    /// 1 with binary values, for `publication`.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` for a name PostgreSQL refuses as a slot's.
    static func startReplication(slot: String, from position: LogPosition, publication: String) throws -> String {
        try validateSlotName(slot)
        let publications = SQLDialect.enclose(quote(publication), in: UInt8(ascii: "'"))
        return "START_REPLICATION SLOT \(slot) LOGICAL \(position) "
            + "(proto_version '1', publication_names \(publications), binary 'true')"
    }

    /// Drops `slot`, waiting while another connection still uses it.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` for a name PostgreSQL refuses as a slot's.
    static func dropSlot(_ slot: String) throws -> String {
        try validateSlotName(slot)
        return "DROP_REPLICATION_SLOT \(slot) WAIT"
    }

    /// A slot's name is lower-case letters, digits and underscores, at most 63 of them (PostgreSQL's rule), so
    /// it is written as it is.
    static func validateSlotName(_ name: String) throws {
        let allowed = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
        guard !name.isEmpty, name.utf8.count <= maximumSlotNameLength, allowed else {
            throw FetchKitError.invalidValue(
                "'\(name)' cannot name a replication slot: use 1 to \(maximumSlotNameLength) lower-case letters, "
                    + "digits and underscores")
        }
    }

    private static func quote(_ identifier: String) -> String { SQLDialect.postgres.quote(identifier) }

    private static func list(_ tables: [String], in schema: String) -> String {
        tables.map { "\(quote(schema)).\(quote($0))" }.joined(separator: ", ")
    }
}
