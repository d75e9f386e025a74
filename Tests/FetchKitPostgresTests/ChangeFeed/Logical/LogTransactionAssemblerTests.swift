import FetchKit
import Testing

@testable import FetchKitPostgres

/// The log's messages fold into one transaction per commit, keyed by each table's primary key, with the rows
/// the transaction left; a stream that cannot be followed is a typed error, never a guess.
@Suite("Log transactions")
struct LogTransactionAssemblerTests {
    static let card = PgOutputMessage.Relation(
        id: 10, namespace: "app", name: "card", replicaIdentity: "d",
        columns: [
            .init(name: "id", isKey: true, typeID: 20, typeModifier: -1),
            .init(name: "title", isKey: false, typeID: 25, typeModifier: -1)
        ])
    /// A table the store does not have, and one of the same name in another schema.
    static let audit = PgOutputMessage.Relation(
        id: 11, namespace: "app", name: "audit", replicaIdentity: "d", columns: card.columns)
    static let elsewhere = PgOutputMessage.Relation(
        id: 12, namespace: "other", name: "card", replicaIdentity: "d", columns: card.columns)

    static func id(_ value: Int64) -> PgOutputMessage.Value {
        .binary(
            stride(from: 56, through: 0, by: -8).map {
                UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> UInt64($0))
            })
    }

    static func title(_ text: String) -> PgOutputMessage.Value { .binary(Array(text.utf8)) }

    static func begin(_ xid: UInt32) -> PgOutputMessage {
        .begin(finalPosition: LogPosition(value: 100), committedAt: 0, transactionID: xid)
    }

    static let commit = PgOutputMessage.commit(
        position: LogPosition(value: 100), end: LogPosition(value: 148), committedAt: 0)

    func assembler() -> LogTransactionAssembler {
        LogTransactionAssembler(schemaName: "app", keyColumns: ["card": "id"])
    }

    func feed(_ messages: [PgOutputMessage], to assembler: inout LogTransactionAssembler) throws -> [LogTransaction] {
        try messages.compactMap { try assembler.receive($0) }
    }

    @Test func aTransactionCarriesItsKeysRowsAndPositions() throws {
        var log = assembler()
        let done = try feed(
            [
                .relation(Self.card), .relation(Self.audit), .relation(Self.elsewhere), Self.begin(7),
                .insert(relation: 10, new: [Self.id(1), Self.title("one")]),
                .insert(relation: 11, new: [Self.id(1), Self.title("not ours")]),
                .insert(relation: 12, new: [Self.id(9), Self.title("not ours either")]),
                .update(relation: 10, old: nil, new: [Self.id(2), Self.title("two")]),
                .update(relation: 10, old: nil, new: [Self.id(1), Self.title("one, edited")]),
                .delete(relation: 10, old: .key([Self.id(3), .null])),
                Self.commit
            ], to: &log)
        let transaction = try #require(done.first)
        #expect(done.count == 1)
        #expect(transaction.transactionID == 7)
        #expect(transaction.commit == LogPosition(value: 100) && transaction.end == LogPosition(value: 148))
        #expect(Set(transaction.tables.keys) == ["card"])
        #expect(
            transaction.tables["card"]
                == TableChange(inserted: [.integer(1)], updated: [.integer(2)], deleted: [.integer(3)]))
        #expect(transaction.rows["card"]?[.integer(1)]?.values["title"] == .text("one, edited"))
        #expect(transaction.rows["card"]?[.integer(2)]?.values["title"] == .text("two"))
        #expect(transaction.rows["card"]?[.integer(3)] == nil)
        #expect(transaction.incomplete.isEmpty)
    }

    @Test func aKeyChangeDeletesTheOldKeyAndInsertsTheNew() throws {
        var log = assembler()
        let done = try feed(
            [
                .relation(Self.card), Self.begin(8),
                .update(relation: 10, old: .key([Self.id(4), .null]), new: [Self.id(40), Self.title("moved")]),
                Self.commit
            ], to: &log)
        let transaction = try #require(done.first)
        #expect(transaction.tables["card"] == TableChange(inserted: [.integer(40)], deleted: [.integer(4)]))
        #expect(transaction.rows["card"]?[.integer(40)]?.values["title"] == .text("moved"))
    }

    @Test func aRowInsertedThenDeletedIsDeletedWithoutARow() throws {
        var log = assembler()
        let done = try feed(
            [
                .relation(Self.card), Self.begin(9), .insert(relation: 10, new: [Self.id(5), Self.title("brief")]),
                .delete(relation: 10, old: .key([Self.id(5), .null])), Self.commit
            ], to: &log)
        let transaction = try #require(done.first)
        #expect(transaction.tables["card"] == TableChange(deleted: [.integer(5)]))
        #expect(transaction.rows["card"]?[.integer(5)] == nil)
    }

    @Test func aTruncateIsAWholeTableChangeAndAnUnchangedValueAsksForAReread() throws {
        var log = assembler()
        let done = try feed(
            [
                // The server describes every truncated relation before the truncate.
                .relation(Self.card), .relation(Self.audit), Self.begin(10),
                .insert(relation: 10, new: [Self.id(6), Self.title("gone")]),
                .truncate(relations: [10, 11], cascade: false, restartIdentity: false),
                .insert(relation: 10, new: [Self.id(7), Self.title("after")]), Self.commit,
                Self.begin(11), .update(relation: 10, old: nil, new: [Self.id(7), .unchanged]), Self.commit
            ], to: &log)
        #expect(done.count == 2)
        #expect(done[0].tables["card"]?.isWholeTable == true)
        // A whole-table change keeps no rows: its controllers refetch.
        #expect(done[0].rows["card"] == nil)
        #expect(done[1].incomplete == ["card": [.integer(7)]])
    }

    @Test func pastTheRowLimitATableIsWholeAndItsRowsAreNotKept() throws {
        var log = LogTransactionAssembler(schemaName: "app", keyColumns: ["card": "id"], rowLimit: 3)
        let inserts = (1...5).map { PgOutputMessage.insert(relation: 10, new: [Self.id($0), Self.title("t")]) }
        let done = try feed([.relation(Self.card), Self.begin(12)] + inserts + [Self.commit], to: &log)
        #expect(done.first?.tables["card"] == TableChange(isWholeTable: true))
        #expect(done.first?.rows["card"] == nil)
    }

    @Test func pastTheImageLimitATableKeepsItsKeysButNotItsRows() throws {
        var log = LogTransactionAssembler(
            schemaName: "app", keyColumns: ["card": "id"], rowLimit: 10, imageLimit: 3)
        let inserts = (1...5).map { PgOutputMessage.insert(relation: 10, new: [Self.id($0), Self.title("t")]) }
        let done = try feed(
            [.relation(Self.card), Self.begin(12)] + inserts + [Self.commit, Self.begin(13), inserts[0], Self.commit],
            to: &log)
        #expect(done.first?.tables["card"]?.inserted == Set((1...5).map { Value.integer(Int64($0)) }))
        #expect(done.first?.rows["card"] == nil)
        // The next transaction keeps its rows again.
        #expect(done.last?.rows["card"]?[.integer(1)] != nil)
    }

    @Test func anAlteredTableIsReadWithItsNewShape() throws {
        var log = assembler()
        var wider = Self.card
        wider.columns.append(.init(name: "rank", isKey: false, typeID: 20, typeModifier: -1))
        let done = try feed(
            [
                .relation(Self.card), Self.begin(12), .insert(relation: 10, new: [Self.id(1), Self.title("a")]),
                Self.commit, .relation(wider), Self.begin(13),
                .insert(relation: 10, new: [Self.id(2), Self.title("b"), Self.id(3)]), Self.commit
            ], to: &log)
        #expect(done[1].rows["card"]?[.integer(2)]?.values["rank"] == .integer(3))
    }

    @Test func aStreamThatCannotBeFollowedIsAnInconsistency() {
        func refused(_ messages: [PgOutputMessage], _ text: String) {
            var log = assembler()
            #expect {
                _ = try feed(messages, to: &log)
            } throws: { error in
                (error as? FetchKitError)?.code == .inconsistency && "\(error)".contains(text)
            }
        }
        refused([Self.begin(1), .insert(relation: 10, new: [Self.id(1), .null])], "relation 10")
        refused([.relation(Self.card), .insert(relation: 10, new: [Self.id(1), .null])], "outside a transaction")
        refused([Self.commit], "a commit outside a transaction")
        refused([.relation(Self.card), Self.begin(1), .insert(relation: 10, new: [.null, .null])], "its key 'id'")
        refused(
            [.relation(Self.card), Self.begin(1), .insert(relation: 10, new: [Self.id(1)])],
            "has 1 columns; its relation has 2")
    }
}
