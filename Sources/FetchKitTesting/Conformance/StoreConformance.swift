import FetchKit
import Foundation

/// The behaviour every backend must share, as checks a backend's tests run against its own store: the one
/// entry point is ``run(_:)``, over ``Check/all``.
///
/// ```swift
/// @Suite struct SQLiteConformance {
///     static let conformance = StoreConformance(capabilities: .init()) {
///         try await SQLiteStore.inMemory(schema: Fixtures.schema)
///     }
///
///     @Test(arguments: StoreConformance.Check.all)
///     func conforms(_ check: StoreConformance.Check) async throws {
///         try await Self.conformance.run(check)
///     }
/// }
/// ```
///
/// `makeStore` returns a new, empty store of ``Fixtures/schema`` each time (checks run in parallel); each
/// check seeds it with the fixtures, runs, and closes it. A check that fails throws a
/// ``ConformanceFailure`` saying what differed.
public struct StoreConformance: Sendable {
    /// What a backend can do where backends may differ.
    public struct Capabilities: Sendable {
        /// Whether `[d]` (diacritic-insensitive) comparisons compile; when not, they must throw
        /// ``FetchKitError/unsupported(_:)``.
        public var diacriticInsensitive: Bool

        /// Capabilities; by default everything a shipped backend offers.
        public init(diacriticInsensitive: Bool = true) {
            self.diacriticInsensitive = diacriticInsensitive
        }
    }

    /// What the backend can do.
    public let capabilities: Capabilities
    /// Makes a new, empty store of ``Fixtures/schema``.
    public let makeStore: @Sendable () async throws -> any PersistentStore
    /// How many random transactions the live-results check runs (`FETCHKIT_TRANSACTIONS` overrides it).
    public let liveTransactions: Int

    /// A conformance suite for the stores `makeStore` makes.
    public init(
        capabilities: Capabilities, liveTransactions: Int = 5_000,
        makeStore: @escaping @Sendable () async throws -> any PersistentStore
    ) {
        self.capabilities = capabilities
        self.liveTransactions = liveTransactions
        self.makeStore = makeStore
    }

    /// Runs `check` on a new store seeded with the fixtures.
    ///
    /// - Throws: ``ConformanceFailure`` when the store does not behave as the check requires, or the error
    ///   the store threw where it should not have.
    public func run(_ check: Check) async throws {
        let store = try await makeStore()
        do {
            try await store.write { tx in try Fixtures.insertSampleData(tx) }
            try await check.body(self, store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}

/// A conformance check that failed: what was expected and what the store did.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// What the store did, against what the check expected.
    public let description: String

    /// A failure saying `description`.
    public init(_ description: String) {
        self.description = description
    }

    /// Throws a failure saying `message` unless `condition` holds.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ConformanceFailure(message()) }
    }
}
