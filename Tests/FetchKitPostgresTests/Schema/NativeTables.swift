@_spi(Benchmarks) import FetchKit
import FetchKitTesting
import Foundation
import Testing

@testable import FetchKitPostgres

/// Tables a DBA made, with PostgreSQL's own column types: created by DDL in a namespace of their own, then
/// opened by a store; and the checks that the store treats each type exactly as its attribute type.
enum NativeTables {
    /// Installs `citext` once per test process (concurrent `CREATE EXTENSION`s race on its catalog row).
    static let citextInstalled = Task {
        try await PostgresServer.administer("CREATE EXTENSION IF NOT EXISTS citext SCHEMA public")
    }

    /// A new namespace holding what `ddl` creates (run with the namespace first on the search path).
    static func namespace(_ ddl: String) async throws -> String {
        try await citextInstalled.value
        let namespace = PostgresServer.uniqueName("fkt")
        try await PostgresServer.administer(
            "CREATE SCHEMA \(namespace); SET search_path = \(namespace), public; \(ddl)")
        return namespace
    }

    /// A store of `schema` over the tables of `namespace`, its sessions in a time zone 5:45 ahead of UTC
    /// (timestamps without time zone and dates must read and compare as UTC whatever the session's zone).
    static func open(
        _ schema: Schema, in namespace: String, options: PostgresStore.Options = .init(readerCount: 2)
    ) async throws -> PostgresStore {
        let url = try PostgresServer.urlText(searchPath: namespace) + "%20-c%20TimeZone%3DAsia/Kathmandu"
        return try await PostgresStore.open(url: url, schema: schema, options: options)
    }

    /// Runs `sql` as another client would (psql, another service), in `namespace`.
    static func otherClient(_ sql: String, in namespace: String) async throws {
        try await PostgresServer.administer("SET search_path = \(namespace), public; \(sql)")
    }

    /// The entity `describeTable` gives for `table` in `namespace`.
    static func describe(_ table: String, in namespace: String) async throws -> Entity {
        try await PostgresStore.describeTable(table, url: PostgresServer.url(searchPath: namespace))
    }

    /// A live controller of `request`, its delegate recording every batch.
    static func follow(_ request: FetchRequest<Row>, on store: PostgresStore) async throws
        -> (ResultsController<Row>, ResultsRecorder<Row>)
    {
        let controller = ResultsController(store: store, request: request)
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        return (controller, recorder)
    }

    /// The key invariant, for every predicate and sort: the rows the database selects are the rows live
    /// results select in memory, and the database's order is the order live results keep in memory.
    /// Returns, per predicate, the keys the database selected.
    @discardableResult
    static func expectMemoryAgrees(
        on store: PostgresStore, entity name: String, predicates: [FetchPredicate], sorts: [[FetchSortDescriptor]],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [Set<Value>] {
        let entity = try store.schema.entity(named: name)
        let key = entity.primaryKey.name
        let all = try await store.fetch(FetchRequest(entity: name))
        var selections: [Set<Value>] = []
        for predicate in predicates {
            let validated = try predicate.validated(for: entity, in: store.schema)
            let memory = try #require(
                InMemoryPredicate(validated, entity: entity, schema: store.schema, dialect: store.dialect),
                "\(predicate) evaluates in memory", sourceLocation: sourceLocation)
            let inDatabase = Set(
                try await store.fetch(FetchRequest(entity: name, predicate: predicate)).map { $0[key] ?? .null })
            let inMemory = Set(all.filter { memory.matches($0) }.map { $0[key] ?? .null })
            #expect(inDatabase == inMemory, "\(predicate)", sourceLocation: sourceLocation)
            selections.append(inDatabase)
        }
        for sort in sorts {
            let request = FetchRequest(entity: name, sortDescriptors: sort)
            let database = try await store.fetch(request).map { $0[key] ?? .null }
            let order = try SortKeyOrder(request.erased, in: store.schema)
            let memory = all.sorted { order.key($0) < order.key($1) }.map { $0[key] ?? .null }
            #expect(database == memory, "\(sort)", sourceLocation: sourceLocation)
        }
        return selections
    }

    /// The changes of `table` that `changes` delivers, until `done` says they are enough or 10 s pass.
    static func collect(
        _ table: String, from changes: AsyncStream<StoreChange>, until done: @escaping @Sendable ([TableChange]) -> Bool
    ) async -> [TableChange] {
        await withTaskGroup(of: [TableChange]?.self) { group in
            group.addTask {
                var collected: [TableChange] = []
                for await change in changes {
                    if let tableChange = change.tables[table] { collected.append(tableChange) }
                    if done(collected) { break }
                }
                return collected
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            // Whichever ends first; cancelling the other ends the stream's iteration or the sleep.
            var result: [TableChange] = []
            while let next = await group.next() {
                if let collected = next { result = collected }
                group.cancelAll()
            }
            return result
        }
    }

    /// Expects `body` to throw a ``FetchKitError`` whose description contains every one of `fragments`.
    static func expectError(
        containing fragments: [String], sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("no error; expected one naming \(fragments)", sourceLocation: sourceLocation)
        } catch let error as FetchKitError {
            let text = error.description
            for fragment in fragments {
                #expect(text.contains(fragment), "\(text) should name \(fragment)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("not a FetchKitError: \(error)", sourceLocation: sourceLocation)
        }
    }

    /// `year-month-day hour:minute:second` UTC.
    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Double = 0)
        -> Date
    {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let whole = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
        return whole.addingTimeInterval(second)
    }
}
