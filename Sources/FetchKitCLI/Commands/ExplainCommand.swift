import ArgumentParser
import FetchKit
import FetchKitBackendKit
import Foundation

/// `fetchkit explain`: how a live query on an existing database would be routed and fetched.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain how a live query would follow an existing SQLite or PostgreSQL table.",
        discussion: """
            Reads the table's columns from the database, then prints how the store's change router would find the \
            changes for a live controller of the query (an equality or a range index, a scan of every changed row, \
            or the database), whether a changed row's membership is decided in memory, the tables whose changes \
            reach it, and the SQL its fetch runs with its parameters. Installs nothing: a PostgreSQL store is opened \
            without change capture.

              fetchkit explain --store sqlite:///var/app.sqlite --entity todo --where 'category_id == 2' --sort title
            """
    )

    @OptionGroup var query: TableQuery

    func run() async throws {
        #if Configuration
            var configuration = StoreConfiguration(url: query.store)
            var environment = ProcessInfo.processInfo.environment
            environment["FETCHKIT_POSTGRES_CHANGE_CAPTURE"] = "false"
            configuration.reader = try await StoreConfiguration.reader(environment: environment)
        #else
            let configuration = StoreConfiguration(url: query.store)
        #endif
        let registry = StoreRegistry.tool
        let described = try await registry.describeTable(query.entity, in: configuration)
        let database = try await registry.open(configuration, schema: try Schema([described]))
        do {
            let request = try query.request(on: described)
            let route = try database.explainRoute(request.erased)
            let compiled = try SQLCompiler(schema: database.schema, dialect: database.dialect).fetch(request.erased)
            for line in Self.lines(route, compiled.statement) { print(TerminalText.safe(line)) }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }

    /// What `explain` prints.
    static func lines(_ route: RouteExplanation, _ statement: SQLStatement) -> [String] {
        let how =
            switch route.routing {
            case .equality:
                "equality on \(route.indexedBy ?? "?"): a changed row reaches it only with a value it asks for"
            case .range: "range on \(route.indexedBy ?? "?"): a changed row reaches it only inside its range"
            case .scan: "scan: its predicate is evaluated on every changed row of its tables"
            case .database, .follower, .unrouted: "database: every change to its tables makes it ask the database"
            }
        var lines = [
            "route: \(how)",
            "membership: "
                + (route.membershipInMemory
                    ? "decided in memory, as the database would decide it" : "decided by the database"),
            "tables: \(route.tables.joined(separator: ", "))",
            "SQL: \(statement.sql)"
        ]
        for (index, value) in statement.bindings.enumerated() { lines.append("  $\(index + 1) = \(value)") }
        return lines
    }
}
