@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitFuzz
import FetchKitPostgres
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitBackendKit

/// What a server compiling its clients' predicates does with 1 MB of one binary operator, on a thread with
/// the 512 KB stack of a secondary thread: parse, validate, compile for SQLite and PostgreSQL, evaluate in
/// memory, render, compare and free. Nothing may crash; a refused input is `invalidPredicate` with an offset.
@Suite("Predicate format: 1 MB chains on a 512 KB stack")
struct LongChainTests {
    static let megabyte = 1 << 20

    /// What happened to one input, told from the small-stack thread.
    enum Outcome: Sendable, Equatable {
        /// Parsed, validated, compiled for both dialects (and evaluated in memory when it can be); `refusedBy`
        /// names the dialects whose compiler refused it as `unsupported` (more bound values than they allow).
        case accepted(terms: Int, evaluated: Bool?, refusedBy: [String])
        /// Refused with this error.
        case refused(code: String, message: String, offset: Int?)
        /// Parsed but a later step threw.
        case failed(String)
    }

    @Test("every binary operator's 1 MB chain", arguments: FuzzChains.operators)
    func megabyteChain(op: String) async throws {
        let format = FuzzChains.chain(op, bytes: Self.megabyte)
        #expect(format.utf8.count >= Self.megabyte)
        let outcome = await Self.onSmallStack { Self.run(format) }
        if FuzzChains.isLogical(op) {
            // A flat AND/OR chain is one n-ary node: accepted whatever its length, and walked without recursion.
            guard case .accepted(let terms, let evaluated, let refusedBy) = outcome else {
                Issue.record("\(op): \(outcome)")
                return
            }
            #expect(terms > 50_000)
            // Each term binds a value: SQLite allows 32,766 of them in a statement, PostgreSQL 65,535.
            #expect(refusedBy.contains("SQLite"))
            #expect(evaluated == (op == "OR" || op == "||"), "\(op): the row has priority 3")
        } else {
            // An arithmetic chain is refused at the operator that passes the depth limit, 100 levels in: the
            // 101st of one operator; mixing the two precedences, the 100th `+` or `-` (each adds a level to
            // the products of `*` and `/` below it, two levels deep).
            guard case .refused(let code, let message, let offset) = outcome else {
                Issue.record("\(op): \(outcome)")
                return
            }
            #expect(code == "invalidPredicate")
            #expect(message == Self.arithmeticLimit)
            let expected =
                op == "+-*/"
                ? Self.offsetOfOperator(100, among: "+-", in: format)
                : Self.offsetOfOperator(101, among: op, in: format)
            #expect(offset == expected, "\(op)")
        }
    }

    /// The deepest arithmetic the parser accepts, inside the deepest nesting it accepts, goes through every
    /// step on the small stack too.
    @Test func deepestArithmeticIsSafeOnASmallStack() async {
        let opening = String(repeating: "NOT ", count: 25) + String(repeating: "(", count: 25)
        let closing = String(repeating: ")", count: 25)
        // 25 NOTs and 25 parentheses, then 50 operators: 100 levels.
        let chain = Array(repeating: "priority", count: 51).joined(separator: " + ")
        let format = opening + chain + " > 0" + closing
        let outcome = await Self.onSmallStack { Self.run(format) }
        #expect(outcome == .accepted(terms: 1, evaluated: nil, refusedBy: []), "arithmetic is evaluated by SQL")
        // One operator more is refused at that operator ("priority + " is 11 bytes).
        let tooDeep = opening + chain + " + priority > 0" + closing
        #expect(
            throws: FetchKitError.invalidPredicate(Self.arithmeticLimit, offset: opening.utf8.count + 11 * 50 + 9)
        ) {
            try FetchPredicate(format: tooDeep)
        }
    }

    /// A SUBQUERY's tree counts toward the depth of the arithmetic it stands in, so nesting both cannot
    /// multiply the depth.
    @Test func subqueryDepthCountsInTheArithmeticAroundIt() {
        let inner =
            "SUBQUERY(todos, $t, " + Array(repeating: "$t.priority", count: 90).joined(separator: " + ")
            + " > 0).@count"
        let outer = inner + String(repeating: " + 1", count: 20) + " > 0"
        do {
            _ = try FetchPredicate(format: outer)
            Issue.record("a 110-level tree parsed")
        } catch let error as FetchKitError {
            #expect(error.code == .invalidPredicate)
            #expect(error.message == Self.arithmeticLimit)
            #expect(error.offset.map { $0 > inner.utf8.count } == true, "\(error)")
        } catch {
            Issue.record("\(error)")
        }
        #expect((try? FetchPredicate(format: inner + String(repeating: " + 1", count: 5) + " > 0")) != nil)
    }

    static let arithmeticLimit = "nesting deeper than 100 (each arithmetic operator of a chain counts one level)"

    /// The UTF-8 offset of the `n`th (1-based) of the arithmetic operators `symbols` in a chain written by
    /// ``FuzzChains``.
    static func offsetOfOperator(_ n: Int, among symbols: String, in format: String) -> Int? {
        var seen = 0
        var previous: UInt8 = 0
        for (offset, byte) in format.utf8.enumerated() {
            defer { previous = byte }
            guard previous == UInt8(ascii: " "), symbols.utf8.contains(byte) else { continue }
            seen += 1
            if seen == n { return offset }
        }
        return nil
    }

    /// Every step a server takes with a client's predicate.
    static func run(_ format: String) -> Outcome {
        let predicate: FetchPredicate
        do {
            predicate = try FetchPredicate(format: format)
        } catch let error as FetchKitError {
            return .refused(code: error.code.description, message: error.message, offset: error.offset)
        } catch {
            return .failed("\(error)")
        }
        do {
            let validated = try predicate.validated(for: Fixtures.todo, in: Fixtures.schema)
            var refusedBy: [String] = []
            for dialect in [SQLDialect.sqlite, .postgres] {
                do {
                    _ = try SQLCompiler(schema: Fixtures.schema, dialect: dialect)
                        .fetch(FetchRequest(entity: "Todo", predicate: predicate).erased)
                } catch let error as FetchKitError where error.code == .unsupported {
                    guard error.message.contains("bound values") else { throw error }
                    refusedBy.append(dialect.name)
                }
            }
            guard validated == (try predicate.validated(for: Fixtures.todo, in: Fixtures.schema)) else {
                return .failed("validation is not deterministic")
            }
            _ = validated.hashValue
            _ = predicate.predicateFormat
            _ = try predicate.substituting([:])
            let terms: Int
            switch predicate.node {
            case .and(let parts), .or(let parts): terms = parts.count
            default: terms = 1
            }
            let memory = InMemoryPredicate(
                validated, entity: Fixtures.todo, schema: Fixtures.schema, dialect: .sqlite)
            let row = Row([("id", 1), ("title", "x"), ("priority", 3), ("done", true), ("categoryID", .null)])
            return .accepted(terms: terms, evaluated: memory?.matches(row), refusedBy: refusedBy)
        } catch {
            return .failed("\(error)")
        }
    }

    /// `body`'s result, computed on a thread whose stack is 512 KB.
    static func onSmallStack(_ body: @escaping @Sendable () -> Outcome) async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }
}
