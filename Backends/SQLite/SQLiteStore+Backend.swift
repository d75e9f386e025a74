import FetchKitBackendKit

extension SQLiteStore: StoreBackend {
    /// `sqlite:`: `sqlite:///absolute/path.sqlite`, `sqlite:relative/path.sqlite`, or `sqlite::memory:`.
    public static var urlSchemes: [String] { ["sqlite"] }

    /// Opens the SQLite database `configuration.url` names (see ``urlSchemes``), with the configuration's
    /// reader count and logger and the SQLite keys of its reader (see ``Options/init(configuration:)``).
    ///
    /// - Throws: ``FetchKitError/Code/invalidURL`` for a URL without a path; ``FetchKitError/Code/invalidValue``
    ///   naming a key whose value is out of range.
    public static func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore {
        let options = try Options(configuration: configuration)
        guard let path = try path(of: configuration) else {
            return try await inMemory(schema: schema, options: options)
        }
        return try await open(path: path, schema: schema, options: options)
    }

    /// The entity of the existing table `table` in the database file `configuration.url` names (see
    /// ``describeTable(_:path:)``).
    public static func describeTable(_ table: String, configuration: StoreConfiguration) async throws -> Entity {
        guard let path = try path(of: configuration) else {
            throw FetchKitError.invalidURL("a new in-memory database has no tables to describe")
        }
        return try await describeTable(table, path: path)
    }

    /// The plan that brings the database file `configuration.url` names to `schema` (see
    /// ``plan(path:schema:)``); for `sqlite::memory:`, the plan that creates every table.
    public static func plan(_ schema: Schema, configuration: StoreConfiguration) async throws -> SchemaPlan {
        guard let path = try path(of: configuration) else {
            return SchemaPlanner(schema: schema, dialect: .sqlite).plan(against: DatabaseDescription(tables: []))
        }
        return try await plan(path: path, schema: schema)
    }

    /// The checks of ``diagnose(path:)`` on the file the URL names; an in-memory database needs none.
    public static func diagnose(_ configuration: StoreConfiguration) async -> [DiagnosticCheck] {
        do {
            guard let path = try path(of: configuration) else {
                return [DiagnosticCheck("file", .ok, "an in-memory database: nothing to check")]
            }
            return diagnose(path: path)
        } catch {
            return [DiagnosticCheck("url", .failure, "\(error)", fix: "write sqlite:///absolute/path.sqlite")]
        }
    }

    /// The file a `sqlite:` URL names, or `nil` for `sqlite::memory:`.
    ///
    /// - Throws: ``FetchKitError/Code/invalidURL`` for a URL without a path, or with user info
    ///   (`sqlite://user:password@…`: SQLite has no users; the message shows the URL redacted, and the path is
    ///   never opened, so no error or log line shows it).
    package static func path(of configuration: StoreConfiguration) throws -> String? {
        var path = String(configuration.url.drop { $0 != ":" }.dropFirst())
        if path == ":memory:" { return nil }
        if path.hasPrefix("//") { path.removeFirst(2) }
        guard !path.isEmpty else {
            throw FetchKitError.invalidURL(
                "'\(configuration.redactedURL)' names no file: use sqlite:///path/to/file.sqlite")
        }
        // An '@' before the path's first '/' ends user info, as in every URL (a relative file name holding
        // one is written sqlite:./name@host.sqlite).
        guard !path.prefix(while: { $0 != "/" }).contains("@") else {
            throw FetchKitError.invalidURL(
                "'\(configuration.redactedURL)' has a user name or password, which SQLite does not take: use "
                    + "sqlite:///path/to/file.sqlite")
        }
        return path
    }
}
