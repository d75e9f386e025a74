import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKit
@testable import FetchKitBackendKit

/// Re-reads by primary key reuse their compiled statement: the result must be exactly what compiling the
/// request afresh gives, whatever keys, counts and dialects follow one another.
@Suite("SQLCompiler: re-reads by key reuse their statement")
struct SQLCompilerKeyListCacheTests {
    static let base: [FetchPredicate] = [
        .constant(true),
        try! FetchPredicate(format: "priority > 2 AND title BEGINSWITH[c] 'a'"),
        try! FetchPredicate(format: "category.name == 'Work' OR due == nil"),
        try! FetchPredicate(format: "notes CONTAINS[c] 'x' AND priority IN {1, 2, 3, 4, 5}")
    ]

    static func reread(_ predicate: FetchPredicate, keys: [Value]) -> FetchRequest<Row> {
        FetchRequest(
            entity: "Todo", predicate: .and([predicate, .comparison(.init(.object, .in, .list(keys)))]),
            sortDescriptors: [.ascending("category.name"), .descending("priority")])
    }

    @Test(arguments: [TestDialects.question, TestDialects.dollar])
    func reusedStatementsEqualFreshOnes(dialect: SQLDialect) throws {
        let cached = SQLCompiler(schema: Fixtures.schema, dialect: dialect)
        var random = SeededRandom(seed: 0xCAC4E)
        for _ in 0..<400 {
            let predicate = Self.base[random.int(0..<Self.base.count)]
            // 1–5 keys: up to the inline limit they are bound one by one (cached), above it as one encoded
            // list (not cached); a NULL among them changes the SQL.
            var keys: [Value] = (0..<random.int(1...5)).map { _ in .integer(Int64(random.int(1...50))) }
            if random.int(0..<10) == 0 { keys[0] = .null }
            let request = Self.reread(predicate, keys: keys)
            let fresh = try SQLCompiler(schema: Fixtures.schema, dialect: dialect).fetch(request.erased)
            #expect(try cached.fetch(request.erased) == fresh, "\(request.predicate)")
        }
        // The bare form the change router uses, too.
        for keys in [[Value.integer(1)], [.integer(2)], [.integer(3), .integer(4)]] {
            let request = FetchRequest(entity: "Todo", predicate: .comparison(.init(.object, .in, .list(keys))))
            #expect(
                try cached.fetch(request.erased)
                    == SQLCompiler(schema: Fixtures.schema, dialect: dialect).fetch(request.erased))
        }
    }

    @Test func aSecondReReadWithOtherKeysHitsTheCache() throws {
        let compiler = SQLCompiler(schema: Fixtures.schema, dialect: TestDialects.question)
        let first = Self.reread(Self.base[1], keys: [.integer(7), .integer(9)])
        let second = Self.reread(Self.base[1], keys: [.integer(11), .integer(12)])
        _ = try compiler.fetch(first.erased)
        let key = try #require(KeyListRequest(second.erased)).cacheKey
        let entry = try #require(compiler.keyListStatements.statement(for: key))
        #expect(entry.statement.bindings.suffix(2) == [.integer(7), .integer(9)])
        #expect(try compiler.fetch(second.erased).statement.bindings.suffix(2) == [.integer(11), .integer(12)])
        // Limits and offsets bind after the keys: such requests are never cached.
        var limited = second
        limited.fetchLimit = 3
        #expect(KeyListRequest(limited.erased) == nil)
    }

    @Test func aKeyOfTheWrongTypeIsStillRejected() throws {
        let compiler = SQLCompiler(schema: Fixtures.schema, dialect: TestDialects.question)
        _ = try compiler.fetch(Self.reread(Self.base[0], keys: [.integer(1)]).erased)
        #expect(throws: FetchKitError.self) {
            try compiler.fetch(Self.reread(Self.base[0], keys: [.text("one")]).erased)
        }
    }
}
