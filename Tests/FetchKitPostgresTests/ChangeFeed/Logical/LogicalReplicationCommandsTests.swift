import FetchKit
import Testing

@testable import FetchKitPostgres

/// The logical-replication session's commands quote every name, and a slot's name is checked against
/// PostgreSQL's rule before it is sent.
@Suite("Logical replication commands")
struct LogicalReplicationCommandsTests {
    @Test func publicationsNameExactlyTheStoresTablesQuoted() {
        #expect(
            LogicalReplicationCommands.createPublication("fetchkit", schema: "app", tables: ["card", "my \"list\""])
                == #"CREATE PUBLICATION "fetchkit" FOR TABLE "app"."card", "app"."my ""list""""#)
        #expect(
            LogicalReplicationCommands.setPublicationTables("pub'x", schema: "public", tables: ["a"])
                == #"ALTER PUBLICATION "pub'x" SET TABLE "public"."a""#)
    }

    @Test func slotsAndTheStreamingCommand() throws {
        #expect(
            try LogicalReplicationCommands.createSlot("fk_board", temporary: true)
                == "CREATE_REPLICATION_SLOT fk_board TEMPORARY LOGICAL pgoutput NOEXPORT_SNAPSHOT")
        #expect(
            try LogicalReplicationCommands.createSlot("fk_board", temporary: false)
                == "CREATE_REPLICATION_SLOT fk_board LOGICAL pgoutput NOEXPORT_SNAPSHOT")
        // The publication's name is an identifier inside a string literal: both quotes are doubled.
        #expect(
            try LogicalReplicationCommands.startReplication(
                slot: "fk_board", from: LogPosition(value: 0x16_B374_D848), publication: "it's \"ours\"")
                == "START_REPLICATION SLOT fk_board LOGICAL 16/B374D848 "
                + #"(proto_version '1', publication_names '"it''s ""ours"""', binary 'true')"#)
        #expect(try LogicalReplicationCommands.dropSlot("fk_board") == "DROP_REPLICATION_SLOT fk_board WAIT")
    }

    @Test func aSlotNamePostgreSQLRefusesIsRefusedFirst() {
        for bad in ["", "Board", "fk-board", "fk board", "fk;drop", "ünïcode", String(repeating: "a", count: 64)] {
            #expect {
                _ = try LogicalReplicationCommands.createSlot(bad, temporary: true)
            } throws: { error in
                (error as? FetchKitError)?.code == .invalidValue && "\(error)".contains("replication slot")
            }
        }
        #expect((try? LogicalReplicationCommands.dropSlot(String(repeating: "a", count: 63))) != nil)
    }
}
