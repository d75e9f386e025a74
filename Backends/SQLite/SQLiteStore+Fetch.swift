import FetchKitBackendKit

extension SQLiteStore {
    /// Fetches the rows matching `request`, in its order, on a reader connection.
    ///
    /// Rows name their columns as ``CompiledFetch/columns`` does: the primary key, the attributes,
    /// then each sort or section key path not already selected.
    ///
    /// - Throws: a ``FetchKitError`` from compiling the request or from the database;
    ///   ``FetchKitError/closed`` after ``close()``.
    public func fetch(_ request: AnyFetchRequest) async throws -> [Row] {
        let fetch = try compiler.fetch(request)
        return try await read { connection in try connection.fetchRows(fetch) }
    }

    /// Fetches the records matching `request`, decoding them straight from the database.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` when `request` is for another
    ///   entity or a row does not fit `R`.
    public func fetch<R: Record>(_ request: AnyFetchRequest, as type: R.Type) async throws -> [R] {
        let fetch = try compiler.compileFetch(request, as: R.self)
        return try await read { connection in try connection.fetchRecords(fetch, as: R.self) }
    }

    /// Counts the objects matching `request` (its limit and offset apply).
    public func count(_ request: AnyFetchRequest) async throws -> Int {
        let statement = try compiler.count(request)
        return try await read { connection in try connection.count(statement) }
    }
}
