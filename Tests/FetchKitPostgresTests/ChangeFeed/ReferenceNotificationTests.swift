import FetchKit
import Testing

@testable import FetchKitPostgres

/// What the trigger feed's reference notifications (`"o":"r"`) and the log's old row images give
/// ``TableChange/references``: the values a followed foreign key held in changed rows, known only when every
/// statement or row reported them.
@Suite("PostgreSQL feeds: references of changed rows")
struct ReferenceNotificationTests {
    typealias Machine = ListenerStateMachine
    static let references = PostgresReferenceColumns(byTable: [
        "todos": [.init(column: "category_id", attribute: "categoryID", padded: false)],
        "tags": [.init(column: "code", attribute: "code", padded: true)]
    ])
    let t0 = ContinuousClock.now

    func listening() -> Machine {
        var machine = Machine(
            options: ListenerStateMachineTests.options, schemaName: "app", references: Self.references)
        _ = machine.handle(.start, at: t0)
        _ = machine.handle(.connected, at: t0)
        return machine
    }

    static func reference(_ transaction: Int64, _ table: String, _ column: String, _ values: String?) -> String {
        "{\"x\":\(transaction),\"s\":\"app\",\"t\":\"\(table)\",\"o\":\"r\",\"c\":\"\(column)\","
            + (values.map { "\"k\":[\($0)]" } ?? "\"all\":true") + "}"
    }

    @Test func referenceNotificationsJoinTheirTransactionsChange() {
        var machine = listening()
        let payloads = [
            ListenerStateMachineTests.payload(7, "todos", "u", "1,2"), Self.reference(7, "todos", "category_id", "3,4"),
            ListenerStateMachineTests.payload(7, "todos", "i", "5"), Self.reference(7, "todos", "category_id", ""),
            // A column the schema does not follow (a DBA's script follows every foreign key) is skipped.
            Self.reference(7, "todos", "owner_id", "9"),
            // A char(n) key's references lose their padding, as the key's own values do.
            ListenerStateMachineTests.payload(7, "tags", "d", "\"x\""), Self.reference(7, "tags", "code", "\"ab  \"")
        ]
        #expect(machine.handle(.inputReceived(payloads), at: t0 + .seconds(1)) == [])
        #expect(
            machine.handle(.tick(markerAwaited: false), at: t0 + .seconds(2)) == [
                .publish([
                    "todos": TableChange(
                        inserted: [.integer(5)], updated: [.integer(1), .integer(2)],
                        references: ["categoryID": [.integer(3), .integer(4)]]),
                    "tags": TableChange(deleted: [.text("x")], references: ["code": [.text("ab")]])
                ])
            ])
    }

    @Test func aStatementWithTooManyValuesMakesTheReferencesUnknown() {
        var machine = listening()
        let payloads = [
            ListenerStateMachineTests.payload(8, "todos", "u", "1"), Self.reference(8, "todos", "category_id", "3"),
            ListenerStateMachineTests.payload(8, "todos", "u", "2"), Self.reference(8, "todos", "category_id", nil),
            ListenerStateMachineTests.payload(8, "todos", "u", "6"), Self.reference(8, "todos", "category_id", "4")
        ]
        _ = machine.handle(.inputReceived(payloads), at: t0 + .seconds(1))
        #expect(
            machine.handle(.tick(markerAwaited: false), at: t0 + .seconds(2)) == [
                .publish(["todos": TableChange(updated: [.integer(1), .integer(2), .integer(6)])])
            ])
    }

    @Test func theLogGivesReferencesFromWholeOldRowsOnly() throws {
        let todo = PgOutputMessage.Relation(
            id: 20, namespace: "app", name: "todos", replicaIdentity: "f",
            columns: [
                .init(name: "id", isKey: true, typeID: 20, typeModifier: -1),
                .init(name: "category_id", isKey: false, typeID: 20, typeModifier: -1)
            ])
        let id = LogTransactionAssemblerTests.id
        func assembler() -> LogTransactionAssembler {
            LogTransactionAssembler(schemaName: "app", keyColumns: ["todos": "id"], references: Self.references)
        }
        var log = assembler()
        // Whole old rows (REPLICA IDENTITY FULL): the old and new categories of each row.
        var done = try [
            .relation(todo), LogTransactionAssemblerTests.begin(7),
            .insert(relation: 20, new: [id(1), id(10)]),
            .update(relation: 20, old: .row([id(2), id(11)]), new: [id(2), id(12)]),
            .delete(relation: 20, old: .row([id(3), .null])),
            LogTransactionAssemblerTests.commit
        ].compactMap { try log.receive($0) }
        #expect(done.first?.tables["todos"]?.references == ["categoryID": [.integer(10), .integer(11), .integer(12)]])
        // Without the old row (the default replica identity), an update's or a delete's old category is unknown.
        for change in [
            PgOutputMessage.update(relation: 20, old: nil, new: [id(2), id(12)]),
            .delete(relation: 20, old: .key([id(2), .null]))
        ] {
            log = assembler()
            done = try [
                .relation(todo), LogTransactionAssemblerTests.begin(8), .insert(relation: 20, new: [id(1), id(10)]),
                change, .insert(relation: 20, new: [id(4), id(10)]), LogTransactionAssemblerTests.commit
            ].compactMap { try log.receive($0) }
            let table = try #require(done.first?.tables["todos"])
            #expect(table.references == [:] && table.allKeys.count == 3)
        }
    }
}
