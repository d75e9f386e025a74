import FetchKitBackendKit

extension PostgresStore {
    /// Runs `body` on a connection of its own to `url` (a pool of one, named `name` in its thread), closed
    /// afterwards whether `body` returns or throws: what the tool's one-off statements (slots, capture, catalog
    /// reads) run on, apart from any store.
    static func withOneConnection<T: Sendable>(
        _ url: PostgresURL, name: String, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let pool = try await ConnectionPool<PostgresConnection>.start(name: name, size: 1) { _ in
            try PostgresConnection.open(url)
        }
        do {
            let result = try await pool.run(body)
            await pool.shutDown()
            return result
        } catch {
            await pool.shutDown()
            throw error
        }
    }
}
