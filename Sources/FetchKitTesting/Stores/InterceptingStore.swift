import FetchKit
import Logging

/// A store around another whose reads first pass `beforeRead` — which may wait, or throw — so that a test can
/// hold or fail the reads of a real store. Writes, the feed and closing are the base store's.
///
/// Its controllers get a change router of their own (a store's router reads through the store its controllers
/// were made with), so what the router re-reads passes `beforeRead` too.
///
/// ```swift
/// let failing = Mutex(false)
/// let store = InterceptingStore(base) {
///     if failing.withLock({ $0 }) { throw FetchKitError.connectionLost("the test made reads fail") }
/// }
/// ```
package final class InterceptingStore: PersistentStore {
    package let base: any PersistentStore
    private let beforeRead: @Sendable () async throws -> Void
    private let beforeClose: @Sendable () -> Void

    /// A store around `base` whose reads first call `beforeRead`; `beforeClose` runs when it closes, first.
    package init(
        _ base: any PersistentStore, beforeClose: @escaping @Sendable () -> Void = {},
        beforeRead: @escaping @Sendable () async throws -> Void
    ) {
        self.base = base
        self.beforeRead = beforeRead
        self.beforeClose = beforeClose
    }

    package var schema: Schema { base.schema }
    package var dialect: SQLDialect { base.dialect }
    package var changeFeed: ChangeFeed { base.changeFeed }
    package var logger: Logger { base.logger }
    package var metricDimensions: [(String, String)] { base.metricDimensions }

    package func fetch(_ request: AnyFetchRequest) async throws -> [Row] {
        try await beforeRead()
        return try await base.fetch(request)
    }

    package func fetch<R: Record>(_ request: AnyFetchRequest, as type: R.Type) async throws -> [R] {
        try await beforeRead()
        return try await base.fetch(request, as: type)
    }

    package func count(_ request: AnyFetchRequest) async throws -> Int {
        try await beforeRead()
        return try await base.count(request)
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any WriteTransaction) throws -> T) async throws -> T {
        try await base.write(body)
    }

    package func waitForPublication() async {
        await base.waitForPublication()
    }

    package func close() async {
        beforeClose()
        await base.close()
    }
}
