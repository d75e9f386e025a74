import FetchKit
import Testing

@testable import FetchKitSQLite

@Suite("SQLite change feed: savepoint statements and the change log")
struct ChangeFeedSavepointTests {
    @Test(
        "savepoint statements are recognised with their names unquoted and lowercased",
        arguments: [
            ("SAVEPOINT a", SQLiteSavepointCommand.begin("a")),
            ("savepoint Mixed_Case1", .begin("mixed_case1")),
            ("  SAVEPOINT \"with \"\"quote\"\"\";", .begin("with \"quote\"")),
            ("SAVEPOINT [br acket]", .begin("br acket")),
            ("SAVEPOINT `tick`", .begin("tick")),
            ("SAVEPOINT 'lit''eral'", .begin("lit'eral")),
            ("-- leading comment\nSAVEPOINT s", .begin("s")),
            ("/* c */ RELEASE s", .release("s")),
            ("RELEASE SAVEPOINT S", .release("s")),
            ("ROLLBACK TO s", .rollbackTo("s")),
            ("rollback transaction to savepoint \"S\"", .rollbackTo("s")),
            ("ROLLBACK TO SAVEPOINT café", .rollbackTo("café"))
        ])
    func recognised(sql: String, command: SQLiteSavepointCommand) {
        #expect(SQLiteSavepointCommand(sql: sql) == command)
        #expect(sql.withCString { SQLiteSavepointCommand.mayBe($0) })
    }

    @Test(
        "other statements are not savepoint statements",
        arguments: [
            "ROLLBACK", "ROLLBACK TRANSACTION", "SELECT 1", "SAVEPOINT", "RELEASE", "ROLLBACK TO",
            "REPLACE INTO t VALUES (1)", "SAVEPOINT \"unterminated", "-- TRIGGER fetchkit_change_0_rekey",
            "INSERT INTO t VALUES ('SAVEPOINT a')"
        ])
    func notRecognised(sql: String) {
        #expect(SQLiteSavepointCommand(sql: sql) == nil)
    }

    @Test(
        "the quick check skips statements that cannot be savepoint statements",
        arguments: [
            "INSERT INTO t VALUES (1)", "UPDATE t SET x = 1", "DELETE FROM t", "-- TRIGGER x", "SELECT 1"
        ])
    func quickCheck(sql: String) {
        #expect(!sql.withCString { SQLiteSavepointCommand.mayBe($0) })
    }

    @Test("the log folds a key's operations: first insert → inserted, last delete → deleted, else updated")
    func folding() {
        var log = SQLiteChangeLog()
        log.append(.insert, table: 0, key: 1)
        log.append(.update, table: 0, key: 1)
        log.append(.delete, table: 0, key: 2)
        log.append(.insert, table: 0, key: 2)
        log.append(.insert, table: 0, key: 3)
        log.append(.delete, table: 0, key: 3)
        log.append(.update, table: 0, key: 4)
        log.append(.delete, table: 0, key: 4)
        log.append(.update, table: 1, key: "a")
        let changes = log.tableChanges(names: ["t", "u"])
        #expect(
            changes == [
                "t": TableChange(inserted: [1], updated: [2], deleted: [3, 4]),
                "u": TableChange(updated: ["a"])
            ])
    }

    @Test("the log follows nested savepoints and marks a table whole-table once")
    func logSavepoints() {
        var log = SQLiteChangeLog()
        log.append(.insert, table: 0, key: 1)
        log.apply(.begin("a"))
        log.appendWholeTable(0)
        log.appendWholeTable(0)
        #expect(log.events.count == 2)
        log.apply(.begin("b"))
        log.append(.insert, table: 0, key: 2)
        log.apply(.rollbackTo("a"))
        #expect(log.events.count == 1)
        log.appendWholeTable(0)
        log.apply(.begin("c"))
        log.append(.insert, table: 0, key: 3)
        log.apply(.release("a"))
        log.apply(.rollbackTo("c"))  // released with a: no such savepoint
        #expect(log.tableChanges(names: ["t"]) == ["t": TableChange(inserted: [1, 3], isWholeTable: true)])
    }
}
