@_spi(Backend) import FetchKit
import FetchKitFixtures
import Foundation

/// The behaviour every backend must share, as checks a backend's tests run against its own store: the one
/// entry point is ``run(_:)``, over ``Check/all``.
///
/// ```swift
/// @Suite struct SQLiteConformance {
///     static let conformance = StoreConformance(capabilities: .init()) { schema in
///         try await SQLiteStore.inMemory(schema: schema)
///     }
///
///     @Test(arguments: StoreConformance.Check.all)
///     func conforms(_ check: StoreConformance.Check) async throws {
///         try await Self.conformance.run(check)
///     }
/// }
/// ```
///
/// `makeStore` returns a new, empty store of the schema it is given each time (checks run in parallel):
/// ``Fixtures/schema`` for most checks, which seed it with the fixtures, and a table of every attribute type
/// for the value checks. Each check runs and closes its store. A check that fails throws a
/// ``ConformanceFailure`` saying what differed.
public struct StoreConformance: Sendable {
    /// What a backend can do where backends may differ.
    public struct Capabilities: Sendable {
        /// Whether `[d]` (diacritic-insensitive) comparisons compile; when not, they must throw
        /// ``FetchKitError/Code/unsupported``.
        public var diacriticInsensitive: Bool
        /// Whether reads run beside a write on connections of their own (and see the last committed state);
        /// when not (an in-memory SQLite store has one connection), reads must wait for the write to end.
        public var concurrentReads: Bool
        /// Whether a foreign-key violation names the constraint (PostgreSQL does; SQLite reports only that
        /// one failed).
        public var namesForeignKeys: Bool

        /// Capabilities; by default everything a backend can offer.
        public init(diacriticInsensitive: Bool = true, concurrentReads: Bool = true, namesForeignKeys: Bool = true) {
            self.diacriticInsensitive = diacriticInsensitive
            self.concurrentReads = concurrentReads
            self.namesForeignKeys = namesForeignKeys
        }
    }

    /// What the backend can do.
    public let capabilities: Capabilities
    /// Makes a new, empty store of the schema it is given.
    public let makeStore: @Sendable (Schema) async throws -> any PersistentStore
    /// How many random transactions the live-results check runs (`FETCHKIT_TRANSACTIONS` overrides it).
    public let liveTransactions: Int

    /// A conformance suite for the stores `makeStore` makes.
    public init(
        capabilities: Capabilities, liveTransactions: Int = 5_000,
        makeStore: @escaping @Sendable (Schema) async throws -> any PersistentStore
    ) {
        self.capabilities = capabilities
        self.liveTransactions = liveTransactions
        self.makeStore = makeStore
    }

    /// Runs `check` on a new store: of ``Fixtures/schema`` seeded with the fixtures, unless the check names
    /// a schema of its own.
    ///
    /// - Throws: ``ConformanceFailure`` when the store does not behave as the check requires, or the error
    ///   the store threw where it should not have.
    public func run(_ check: Check) async throws {
        let store = try await makeStore(check.schema ?? Fixtures.schema)
        do {
            if check.schema == nil {
                try await store.write { tx in try Fixtures.insertSampleData(tx) }
                // A store's write may return before its change is published: a controller whose first fetch
                // already read the seed would apply it again when it arrives (an empty batch, but one the
                // checks that count a controller's paths would see).
                await store.waitForPublication()
            }
            if check.requiresSQL && !store.dialect.runsSQL {
                try await checkRawSQLRefused(on: store)
            } else {
                try await check.body(self, store)
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
