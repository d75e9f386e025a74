@_spi(Backend) import FetchKit
import FetchKitBackendKit

extension InMemoryStore {
    /// Fetches the rows matching `request`, in its order: the primary key, the attributes (or the properties
    /// to fetch), then each sort or section key path not already selected, as the backends name them.
    ///
    /// - Throws: a ``FetchKitError`` for a request that does not fit the schema, or a predicate no store can
    ///   answer (`MATCHES`); ``FetchKitError/closed`` after ``close()``.
    /// - Complexity: O(*n*) evaluations of the predicate and O(*m* log *m*) to order the *m* selected rows.
    public func fetch(_ request: AnyFetchRequest) async throws -> [Row] {
        try committed().fetch(request, schema: schema, dialect: dialect)
    }

    /// Fetches the records matching `request`.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` when `request` is for another entity or a row does not
    ///   fit `R`.
    public func fetch<R: Record>(_ request: AnyFetchRequest, as type: R.Type) async throws -> [R] {
        try Self.decode(try committed().fetch(request, schema: schema, dialect: dialect), request, as: R.self)
    }

    /// Counts the objects matching `request` (its limit and offset apply).
    public func count(_ request: AnyFetchRequest) async throws -> Int {
        try committed().count(request, schema: schema, dialect: dialect)
    }

    /// Runs `body` in one transaction: it commits when `body` returns and rolls back whole (nothing it wrote
    /// is kept or published) when `body` throws. Writes run one at a time, on the store's own thread; reads
    /// beside a write see the last committed state.
    ///
    /// ```swift
    /// let todo = try await store.write { tx in try tx.insert(Todo(title: "Ship it")) }
    /// ```
    ///
    /// - Throws: what `body` throws; ``FetchKitError/closed`` after ``close()``.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any WriteTransaction) throws -> T) async throws -> T {
        try await onWriter { try self.transaction(body) }
    }

    /// `rows` decoded as `R`, which must be the entity `request` fetches.
    static func decode<R: Record>(_ rows: [Row], _ request: AnyFetchRequest, as type: R.Type) throws -> [R] {
        guard request.entityName == R.entity.name else {
            throw FetchKitError.recordMapping(
                entity: R.entity.name, detail: "the request fetches \(request.entityName), not \(R.entity.name)")
        }
        return try rows.map { try RecordCoding.decode(R.self, from: $0) }
    }
}
